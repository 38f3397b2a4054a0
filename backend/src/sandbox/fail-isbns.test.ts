// SANDBOX_FAIL_ISBNS: which ISBNs the sandbox refuses, and for how many requests.
import { describe, expect, it } from 'vitest';
import { startMarketplaceSandbox } from '../marketplaces/sandbox.ts';
import { FailIsbns } from './options.ts';

describe('SANDBOX_FAIL_ISBNS', () => {
  it('reads isbn or isbn:n entries, n requests or always', () => {
    expect(FailIsbns.parse('')).toEqual({});
    expect(FailIsbns.parse(' 9789876543217:1, 978020161622X ')).toEqual({ '9789876543217': 1, '978020161622X': Number.POSITIVE_INFINITY });
  });

  it('refuses anything else with a message naming the form', () => {
    const result = FailIsbns.safeParse('9789876543217:x');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('a comma-separated list of isbn or isbn:n');
  });

  it('refuses a listed ISBN like an unknown one for its first n requests per marketplace, then answers it', async () => {
    const isbn = '9789876543217';
    const sandbox = await startMarketplaceSandbox({ latencyMs: 0, failIsbns: { [isbn]: 1 } });
    try {
      const ask = () => fetch(`${sandbox.url}/pallet-iq/v1/isbn/${isbn}/0`).then((r) => r.json() as Promise<{ status: string }>);
      const first = await ask();
      const second = await ask();
      expect(sandbox.stats().byResult.error).toBe(1);
      expect(first.status).toBe('failed');
      expect(second.status).not.toBe('failed');
    } finally {
      await sandbox.close();
    }
  });
});
