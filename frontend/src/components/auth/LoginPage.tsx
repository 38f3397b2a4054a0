// The login form: a failed sign-in is said under the form, not as a toast.
import { FORM_MODE } from '../../lib/form-mode';
import { Anchor, Button, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { loginAccessToken } from '../../client/sdk.gen';
import { AuthCard } from './AuthCard';
import { PasswordField } from '../common/PasswordField';
import { loginErrorMessage } from '../../lib/errors';
import { VALIDATION } from '../../lib/messages';
import { setToken } from '../../lib/session';
import { EMAIL_PATTERN, passwordRules } from '../../lib/validation';
import { TextField } from '../common/TextField';

interface LoginForm {
  username: string;
  password: string;
}

export function LoginPage() {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<LoginForm>({ mode: FORM_MODE, defaultValues: { username: '', password: '' } });
  const { errors } = formState;

  const login = useMutation({
    mutationFn: async (body: LoginForm) => (await loginAccessToken({ body })).data,
    // Login failures are shown inline, not as a toast.
    meta: { toastOnError: false },
    onSuccess: (token) => {
      setToken(token.access_token);
      void navigate({ to: '/', search: { page: 1 } });
    },
    onError: (err) => setFailure(loginErrorMessage(err)),
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    login.mutate(values);
  });

  return (
    <AuthCard title="Log In" onSubmit={onSubmit}>
      <TextField
        label="Email"
        type="email"
        autoComplete="username"
        error={errors.username?.message}
        {...register('username', {
          required: VALIDATION.usernameRequired,
          pattern: { value: EMAIL_PATTERN, message: VALIDATION.emailInvalid },
        })}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password', passwordRules())}
      />
      {failure && (
        <Text c="red" size="sm" role="alert">
          {failure}
        </Text>
      )}
      <Anchor component={Link} to="/recover-password" size="sm">
        Forgot Password?
      </Anchor>
      <Button type="submit" loading={login.isPending || formState.isSubmitting} fullWidth>
        Log In
      </Button>
      <Text size="sm" ta="center">
        Don't have an account?{' '}
        <Anchor component={Link} to="/signup">
          Sign Up
        </Anchor>
      </Text>
    </AuthCard>
  );
}
