// react-hook-form rules with the specification's messages (docs/requirements.md, Validation messages).
// Forms validate on blur.
import type { FieldPath, FieldValues } from 'react-hook-form';
import { LIMITS, VALIDATION } from './messages';

/** "A standard email pattern" (docs/requirements.md, Validation messages): which one is our choice. */
export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

export const emailRules = {
  required: VALIDATION.emailRequired,
  pattern: { value: EMAIL_PATTERN, message: VALIDATION.emailInvalid },
};

/** Password: minimum 8; required unless editing (then empty means "unchanged"). */
export function passwordRules(required = true) {
  return {
    required: required ? VALIDATION.passwordRequired : false,
    minLength: { value: LIMITS.passwordMin, message: VALIDATION.passwordMin },
  };
}

/** Confirm password: must equal the field `against`; `required` is the message, or false when optional. */
export function confirmPasswordRules<T extends FieldValues>(against: FieldPath<T>, required: string | false = VALIDATION.confirmRequired) {
  return {
    required,
    validate: (value: unknown, values: T) => value === (values[against] ?? '') || VALIDATION.passwordsDoNotMatch,
  };
}
