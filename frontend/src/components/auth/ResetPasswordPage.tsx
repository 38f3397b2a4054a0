// Sets a new password with the token from the reset email.
import { FORM_MODE } from '../../lib/form-mode';
import { Anchor, Button, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { resetPassword } from '../../client/sdk.gen';
import { AuthCard } from './AuthCard';
import { NewPasswordFields } from '../common/NewPasswordFields';
import { TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';

interface ResetForm {
  new_password: string;
  confirm_password: string;
}

export function ResetPasswordPage({ token }: { token: string | undefined }) {
  const navigate = useNavigate();
  const { register, handleSubmit, reset, formState } = useForm<ResetForm>({
    mode: FORM_MODE,
    defaultValues: { new_password: '', confirm_password: '' },
  });
  const { errors } = formState;

  const resetMutation = useMutation({
    mutationFn: async (body: { token: string; new_password: string }) => (await resetPassword({ body })).data,
    onSuccess: () => {
      showSuccess(TOAST.passwordUpdated);
      reset();
      void navigate({ to: '/login' });
    },
  });

  const onSubmit = handleSubmit(({ new_password }) => {
    // Without a token in the URL, submitting does nothing.
    if (!token) return;
    resetMutation.mutate({ token, new_password });
  });

  return (
    <AuthCard title="Reset Password" onSubmit={onSubmit}>
      <Text size="sm" ta="center">
        Please enter your new password and confirm it to reset your password.
      </Text>
      <NewPasswordFields register={register} errors={errors} passwordName="new_password" passwordLabel="New Password" />
      <Button type="submit" loading={resetMutation.isPending} fullWidth>
        Reset Password
      </Button>
      <Anchor component={Link} to="/login" size="sm" ta="center">
        Back to Log In
      </Anchor>
    </AuthCard>
  );
}
