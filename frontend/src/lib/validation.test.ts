import { describe, expect, it } from 'vitest';
import { confirmPasswordRules, EMAIL_PATTERN, passwordRules } from './validation';

describe('EMAIL_PATTERN', () => {
  it.each(['a@b.co', 'first.last+tag@example.com', 'ADMIN@EXAMPLE.COM'])('accepts %s', (e) => expect(EMAIL_PATTERN.test(e)).toBe(true));
  it.each(['a@b', 'no-at.example.com', 'a@b.c', 'a b@c.com', ''])('rejects %j', (e) => expect(EMAIL_PATTERN.test(e)).toBe(false));
});

describe('password rules', () => {
  it('carry the spec messages', () => {
    expect(passwordRules()).toEqual({
      required: 'Password is required',
      minLength: { value: 8, message: 'Password must be at least 8 characters' },
    });
    expect(passwordRules(false).required).toBe(false);
  });

  it('confirm must equal the other field', () => {
    const rules = confirmPasswordRules<{ password: string; confirm: string }>('password');
    expect(rules.required).toBe('Password confirmation is required');
    expect(rules.validate('abcdefgh', { password: 'abcdefgh', confirm: '' })).toBe(true);
    expect(rules.validate('abcdefgX', { password: 'abcdefgh', confirm: '' })).toBe('The passwords do not match');
  });

  it('optional confirm (edit user) accepts two empty fields', () => {
    const rules = confirmPasswordRules<{ password: string }>('password', false);
    expect(rules.required).toBe(false);
    expect(rules.validate('', { password: '' })).toBe(true);
  });
});
