// Asks for a password reset email.
import { FORM_MODE } from '../../lib/form-mode';
import { Anchor, Button, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { recoverPassword } from '../../client/sdk.gen';
import { AuthCard } from './AuthCard';
import { TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { emailRules } from '../../lib/validation';

export function RecoverPasswordPage() {
  const { register, handleSubmit, reset, formState } = useForm<{ email: string }>({ mode: FORM_MODE, defaultValues: { email: '' } });

  const recover = useMutation({
    mutationFn: async (email: string) => (await recoverPassword({ path: { email } })).data,
    onSuccess: () => {
      showSuccess(TOAST.recovery, TOAST.recoveryTitle);
      reset();
    },
  });

  return (
    <AuthCard title="Password Recovery" onSubmit={handleSubmit(({ email }) => recover.mutate(email))}>
      <Text size="sm" ta="center">
        A password recovery email will be sent to the registered account.
      </Text>
      <TextInput
        label="Email"
        placeholder="Email"
        type="email"
        autoComplete="email"
        error={formState.errors.email?.message}
        {...register('email', emailRules)}
      />
      <Button type="submit" loading={recover.isPending} fullWidth>
        Continue
      </Button>
      <Text size="sm" ta="center">
        Remember your password?{' '}
        <Anchor component={Link} to="/login">
          Log In
        </Anchor>
      </Text>
    </AuthCard>
  );
}
