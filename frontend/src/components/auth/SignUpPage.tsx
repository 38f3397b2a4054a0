// Self-service sign-up.
import { FORM_MODE } from '../../lib/form-mode';
import { Anchor, Button, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { registerUser } from '../../client/sdk.gen';
import { AuthCard } from './AuthCard';
import { NewPasswordFields } from '../common/NewPasswordFields';
import { signUpErrorMessage } from '../../lib/errors';
import { LIMITS, TOAST, VALIDATION } from '../../lib/messages';
import { showError, showSuccess } from '../../lib/notify';
import { emailRules } from '../../lib/validation';
import { TextField } from '../common/TextField';

interface SignUpForm {
  full_name: string;
  email: string;
  password: string;
  confirm_password: string;
}

export function SignUpPage() {
  const navigate = useNavigate();
  const { register, handleSubmit, formState } = useForm<SignUpForm>({
    mode: FORM_MODE,
    defaultValues: { full_name: '', email: '', password: '', confirm_password: '' },
  });
  const { errors } = formState;

  const signUp = useMutation({
    mutationFn: async ({ confirm_password: _, ...body }: SignUpForm) => (await registerUser({ body })).data,
    // Sign-up failure has its own title (docs/requirements.md, Sign-up).
    meta: { toastOnError: false },
    onSuccess: () => {
      showSuccess(TOAST.signUpSuccess, TOAST.signUpSuccessTitle);
      void navigate({ to: '/login' });
    },
    onError: (err) => showError(signUpErrorMessage(err), TOAST.signUpFailureTitle),
  });

  // Native validation on only for the full name's minLength; the email input is type text with an
  // email keyboard so the spec's own messages, not the browser's, speak for it.
  return (
    <AuthCard title="Sign Up" nativeValidation onSubmit={handleSubmit((values) => signUp.mutate(values))}>
      <TextField
        label="Full Name"
        // Sign-up full name input minimum 3 (a native constraint, checked on submit).
        minLength={LIMITS.signUpFullNameMin}
        autoComplete="name"
        error={errors.full_name?.message}
        {...register('full_name', { required: VALIDATION.fullNameRequired })}
      />
      <TextField label="Email" inputMode="email" autoComplete="email" error={errors.email?.message} {...register('email', emailRules)} />
      <NewPasswordFields register={register} errors={errors} passwordName="password" passwordLabel="Password" />
      <Button type="submit" loading={signUp.isPending} fullWidth>
        Sign Up
      </Button>
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to="/login">
          Log In
        </Anchor>
      </Text>
    </AuthCard>
  );
}
