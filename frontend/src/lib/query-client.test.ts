import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import { createQueryClient, isSessionError, retryDelay, shouldRetry } from './query-client';

describe('retryDelay (1 s doubled each time, capped at 30 s)', () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [4, 16_000],
    [5, 30_000],
    [10, 30_000],
  ])('attempt %i → %i ms', (attempt, ms) => expect(retryDelay(attempt)).toBe(ms));
});

describe('shouldRetry', () => {
  it('retries up to three times', () => {
    const err = new ApiError(500, { detail: 'boom' });
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, err))).toEqual([true, true, true, false]);
  });
  it('does not retry answers that will not change', () => {
    expect(shouldRetry(0, new ApiError(404, { detail: 'Item not found' }))).toBe(false);
    expect(shouldRetry(0, new ApiError(403, { detail: 'Could not validate credentials' }))).toBe(false);
    expect(shouldRetry(0, new ApiError(429, { detail: 'Too Many Requests' }))).toBe(true);
    expect(shouldRetry(0, new ApiError(undefined, undefined, 'Failed to fetch'))).toBe(true);
  });
});

describe('createQueryClient', () => {
  it('has the spec defaults', () => {
    const qc = createQueryClient(() => {});
    const q = qc.getDefaultOptions().queries!;
    expect(q.gcTime).toBe(5 * 60 * 1000);
    expect(qc.getDefaultOptions().mutations!.retry).toBe(0);
  });

  it('toasts a failed mutation unless it opts out', async () => {
    const shown: unknown[] = [];
    const qc = createQueryClient((e) => shown.push(e));
    const err = new ApiError(400, { detail: 'nope' });
    await qc
      .getMutationCache()
      .build(qc, { mutationFn: () => Promise.reject(err) })
      .execute(undefined)
      .catch(() => {});
    await qc
      .getMutationCache()
      .build(qc, { mutationFn: () => Promise.reject(err), meta: { toastOnError: false } })
      .execute(undefined)
      .catch(() => {});
    expect(shown).toEqual([err]);
  });

  it('does not toast a background load that failed because the session is gone', async () => {
    const showError = vi.fn();
    const qc = createQueryClient(showError);
    await qc
      .fetchQuery({ queryKey: ['a'], queryFn: () => Promise.reject(new ApiError(403, { detail: 'x' })), retry: false })
      .catch(() => {});
    await qc
      .fetchQuery({ queryKey: ['b'], queryFn: () => Promise.reject(new ApiError(500, { detail: 'y' })), retry: false })
      .catch(() => {});
    expect(showError).toHaveBeenCalledTimes(1);
    expect(isSessionError(new ApiError(401, {}))).toBe(true);
  });
});
