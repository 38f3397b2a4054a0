// Initial configuration of the generated API client (wired in via `runtimeConfigPath`).
import type { CreateClientConfig } from '../client/client.gen';

export const createClientConfig: CreateClientConfig = (config) => ({
  ...config,
  baseUrl: '',
  credentials: 'include',
});
