import { describe, expect, it } from 'vitest';
import { ApiError, errorToastMessage, fieldErrors, loginErrorMessage, signUpErrorMessage } from './errors';

const listDetail = { detail: [{ loc: ['body', 'email'], msg: 'value is not a valid email address', type: 'value_error' }] };
const GENERIC = 'Something went wrong.';

describe('errorToastMessage (the shared error toast)', () => {
  it.each([
    ['uses a string detail', new ApiError(400, { detail: 'Incorrect password' }), 'Incorrect password'],
    ["uses the first item's msg of a list detail", new ApiError(422, listDetail), 'value is not a valid email address'],
    ['falls back to the generic message for a text body', new ApiError(500, 'Internal Server Error'), GENERIC],
    ['falls back to the generic message without an answer', new ApiError(undefined, undefined, 'Failed to fetch'), GENERIC],
    ['falls back to the generic message for an empty list detail', new ApiError(422, { detail: [] }), GENERIC],
    ['falls back to the generic message for no error', null, GENERIC],
    ['reads a bare body too', { detail: 'Not Found' }, 'Not Found'],
  ])('%s', (_name, error, message) => {
    expect(errorToastMessage(error)).toBe(message);
  });
});

describe('loginErrorMessage (inline under the login fields)', () => {
  it.each([
    ['shows the detail string', new ApiError(400, { detail: 'Incorrect email or password' }), 'Incorrect email or password'],
    ['turns a list detail into "Something went wrong" without a full stop', new ApiError(422, listDetail), 'Something went wrong'],
  ])('%s', (_name, error, message) => {
    expect(loginErrorMessage(error)).toBe(message);
  });
});

describe('signUpErrorMessage', () => {
  it.each([
    [
      'prefers the detail',
      new ApiError(400, { detail: 'The user with this email already exists in the system' }),
      'The user with this email already exists in the system',
    ],
    ['then the client message', new ApiError(undefined, undefined, 'Failed to fetch'), 'Failed to fetch'],
  ])('%s', (_name, error, message) => {
    expect(signUpErrorMessage(error)).toBe(message);
  });
});

describe('fieldErrors (a 422 shown beside its inputs)', () => {
  it('maps each message to the field its loc names, the first message per field', () => {
    const err = new ApiError(422, {
      detail: [
        { loc: ['body', 'percent'], msg: 'too big', type: 'too_big' },
        { loc: ['body', 'percent'], msg: 'second', type: 'x' },
        { loc: ['body', 'fixed'], msg: 'negative', type: 'too_small' },
      ],
    });
    expect(fieldErrors(err)).toEqual({ percent: 'too big', fixed: 'negative' });
  });

  it('names a nested field by its path after the request part', () => {
    const err = new ApiError(422, {
      detail: [
        { loc: ['body', 'rules', 1, 'conditions', 0, 'field'], msg: 'Unknown field', type: 'value_error' },
        { loc: ['query', 'market'], msg: 'not on this job', type: 'value_error' },
      ],
    });
    expect(fieldErrors(err)).toEqual({ 'rules.1.conditions.0.field': 'Unknown field', market: 'not on this job' });
  });

  it('is empty for a string detail, no answer or a detail without loc', () => {
    expect(fieldErrors(new ApiError(403, { detail: 'Forbidden' }))).toEqual({});
    expect(fieldErrors(new ApiError(undefined, undefined))).toEqual({});
    expect(fieldErrors({ detail: [{ msg: 'x' }] })).toEqual({});
  });
});
