import { describe, expect, it } from 'vitest';
import { redactDetails } from './record.ts';

describe('audit details', () => {
  it('drops every key that could hold a secret, at any depth, and keeps the rest', () => {
    expect(
      redactDetails({
        email: 'a@example.com',
        password: 'p',
        new_password: 'p',
        access_token: 't',
        resetLink: 'http://x/reset-password?token=t',
        nested: [{ hashed_password: 'h', api_key: 'k', kept: 1 }],
        fields: ['password', 'email'],
      }),
    ).toEqual({ email: 'a@example.com', nested: [{ kept: 1 }], fields: ['password', 'email'] });
  });

  it('shows NUL, which jsonb cannot hold, as U+FFFD', () => {
    expect(redactDetails({ email: 'a\0b' })).toEqual({ email: 'a\uFFFDb' });
  });
});
