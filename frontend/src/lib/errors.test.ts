import { describe, expect, it } from 'vitest';
import { ApiError, errorToastMessage, loginErrorMessage, signUpErrorMessage } from './errors';

const listDetail = { detail: [{ loc: ['body', 'email'], msg: 'value is not a valid email address', type: 'value_error' }] };

describe('errorToastMessage (spec §8 shared error toast)', () => {
  it('uses a string detail', () => {
    expect(errorToastMessage(new ApiError(400, { detail: 'Incorrect password' }))).toBe('Incorrect password');
  });
  it("uses the first item's msg of a list detail", () => {
    expect(errorToastMessage(new ApiError(422, listDetail))).toBe('value is not a valid email address');
  });
  it('falls back to the generic message', () => {
    expect(errorToastMessage(new ApiError(500, 'Internal Server Error'))).toBe('Something went wrong.');
    expect(errorToastMessage(new ApiError(undefined, undefined, 'Failed to fetch'))).toBe('Something went wrong.');
    expect(errorToastMessage(new ApiError(422, { detail: [] }))).toBe('Something went wrong.');
    expect(errorToastMessage(null)).toBe('Something went wrong.');
  });
  it('reads a bare body too', () => {
    expect(errorToastMessage({ detail: 'Not Found' })).toBe('Not Found');
  });
});

describe('loginErrorMessage (inline under the login fields)', () => {
  it('shows the detail string', () => {
    expect(loginErrorMessage(new ApiError(400, { detail: 'Incorrect email or password' }))).toBe('Incorrect email or password');
  });
  it('turns a list detail into "Something went wrong" without a full stop', () => {
    expect(loginErrorMessage(new ApiError(422, listDetail))).toBe('Something went wrong');
  });
});

describe('signUpErrorMessage', () => {
  it('prefers the detail, then the client message', () => {
    expect(signUpErrorMessage(new ApiError(400, { detail: 'The user with this email already exists in the system' }))).toBe(
      'The user with this email already exists in the system',
    );
    expect(signUpErrorMessage(new ApiError(undefined, undefined, 'Failed to fetch'))).toBe('Failed to fetch');
  });
});
