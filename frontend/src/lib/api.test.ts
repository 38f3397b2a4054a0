import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { client } from '../client/client.gen';
import { readUsers } from '../client/sdk.gen';
import { configureApi } from './api';
import { ApiError } from './errors';
import { TOKEN_KEY } from './session';

// Node has no localStorage; a Map-backed one is enough for the session helpers.
const store = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
  removeItem: (k: string) => void store.delete(k),
});
// The next test file runs in this process (isolate: false): it meets Node's globals, not this stub.
afterAll(() => vi.unstubAllGlobals());

const onForbidden = vi.fn();
let seen: Request | undefined;

// Node's Request needs an absolute URL; in the browser the client's base URL is '' (same origin).
const baseUrl = 'http://app.test';

function answer(status: number, body: unknown): typeof fetch {
  return async (input) => {
    // The client always hands fetch a Request it built (after the interceptors ran).
    seen = input as Request;
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  };
}

beforeAll(() => configureApi({ onForbidden }));
beforeEach(() => {
  store.clear();
  onForbidden.mockClear();
  seen = undefined;
});

describe('generated client wiring', () => {
  it('is configured for relative paths with credentials', () => {
    expect(client.getConfig().baseUrl).toBe('');
    expect(client.getConfig().credentials).toBe('include');
  });

  it('sends credentials and the stored bearer token', async () => {
    store.set(TOKEN_KEY, 'tok123');
    const { data } = await readUsers({ query: { skip: 5, limit: 5 }, baseUrl, fetch: answer(200, { data: [], count: 0 }) });
    expect(data).toEqual({ data: [], count: 0 });
    expect(seen!.headers.get('Authorization')).toBe('Bearer tok123');
    expect(seen!.credentials).toBe('include');
    expect(seen!.url).toBe(`${baseUrl}/api/v1/users/?skip=5&limit=5`);
  });

  it('sends no Authorization header without a token', async () => {
    await readUsers({ baseUrl, fetch: answer(200, { data: [], count: 0 }) });
    expect(seen!.headers.get('Authorization')).toBeNull();
  });

  it('throws an ApiError with status and body', async () => {
    const err = await readUsers({ baseUrl, fetch: answer(404, { detail: 'Nope' }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).body).toEqual({ detail: 'Nope' });
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('ends the session on a 403 from any call', async () => {
    store.set(TOKEN_KEY, 'bad');
    await readUsers({ baseUrl, fetch: answer(403, { detail: 'Could not validate credentials' }) }).catch(() => {});
    expect(onForbidden).toHaveBeenCalledTimes(1);
  });
});
