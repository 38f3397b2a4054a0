// Initial configuration of the generated API client (wired in via `runtimeConfigPath`).
// The client's own type (client/client), not client.gen.ts's: client.gen.ts imports this file.
import type { CreateClientConfig } from '../client/client';

export const createClientConfig: CreateClientConfig = (config) => ({
  ...config,
  baseUrl: '',
  credentials: 'include',
});
