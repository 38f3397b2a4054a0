// A new password and its confirmation (sign-up, reset, change): both "new-password", the second
// checked against the first, always in the form's `confirm_password` field.
import { type FieldError, type FieldErrors, type FieldValues, get, type Path, type UseFormRegister } from 'react-hook-form';
import { confirmPasswordRules, passwordRules } from '../../lib/validation';
import { PasswordField } from './PasswordField';

export interface NewPasswordFieldsProps<T extends FieldValues & { confirm_password: string }> {
  register: UseFormRegister<T>;
  /** The form field holding the new password. */
  passwordName: Path<T>;
  passwordLabel: string;
  errors: FieldErrors<T>;
}

export function NewPasswordFields<T extends FieldValues & { confirm_password: string }>({
  register,
  passwordName,
  passwordLabel,
  errors,
}: NewPasswordFieldsProps<T>) {
  const passwordError = get<FieldErrors<T>, FieldError | undefined>(errors, passwordName)?.message;
  const confirmError = get<FieldErrors<T>, FieldError | undefined>(errors, 'confirm_password')?.message;
  return (
    <>
      <PasswordField label={passwordLabel} autoComplete="new-password" error={passwordError} {...register(passwordName, passwordRules())} />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        error={confirmError}
        {...register('confirm_password' as Path<T>, confirmPasswordRules<T>(passwordName))}
      />
    </>
  );
}
