// Wires the generated client to the session: bearer token on every call, every failure thrown as an
// ApiError carrying its status, and a 403 on any call ending the session (docs/requirements.md: Session,
// The API the screens call).
import { client } from '../client/client.gen';
import { ApiError } from './errors';
import { getToken } from './session';

let installed = false;

export function configureApi({ onForbidden }: { onForbidden: () => void }): void {
  if (installed) return;
  installed = true;

  client.interceptors.request.use((request) => {
    const token = getToken();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  });

  client.interceptors.response.use((response) => {
    if (response.status === 403) onForbidden();
    return response;
  });

  client.interceptors.error.use((error, response) => {
    if (error instanceof ApiError) return error;
    // No response means the request never completed (network failure, abort).
    if (!response) return new ApiError(undefined, undefined, error instanceof Error ? error.message : String(error));
    return new ApiError(response.status, error);
  });
}
