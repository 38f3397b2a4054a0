import { describe, expect, it } from 'vitest';
import { retryHint } from './retry';

describe('retryHint', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('says when a waiting lookup will be tried again, with the reason', () => {
    const at = '2026-11-23T10:30:00Z';
    expect(retryHint({ retry_at: at, retry_reason: 'Rate limited (429)' }, now)).toEqual({
      text: `retry at ${new Date(at).toLocaleTimeString()}`,
      reason: 'Rate limited (429)',
    });
  });

  it('says "retrying now" once the time has come', () => {
    expect(retryHint({ retry_at: '2026-11-23T09:59:00Z', retry_reason: null }, now)).toEqual({ text: 'retrying now', reason: '' });
  });

  it('shows nothing for a lookup that is not waiting', () => {
    expect(retryHint({ retry_at: null }, now)).toBeNull();
    expect(retryHint({}, now)).toBeNull();
  });
});
