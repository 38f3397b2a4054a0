// Builds multipart/form-data bodies for fastify.inject.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { byMarketplace } from '@app/domain/marketplaces';

export function multipartBody(fields: Record<string, string>, file?: { name: string; data: Buffer | string; field?: string }) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A job config asking every marketplace. */
export const ALL_SOURCES = byMarketplace(() => true);

/** POSTs a job upload (its config as JSON, or a raw string to test bad ones) as `token`. */
export function postJobUpload(
  app: Pick<FastifyInstance, 'inject'>,
  token: string,
  config: unknown,
  file: { name: string; data: Buffer | string },
) {
  const body = multipartBody({ config: typeof config === 'string' ? config : JSON.stringify(config) }, file);
  return app.inject({
    method: 'POST',
    url: '/api/v1/jobs/upload-file',
    headers: { authorization: `Bearer ${token}`, ...body.headers },
    payload: body.payload,
  });
}
