// buildApp: plugins, the error handler, the API routes and (optionally) the built frontend.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { App, AppContext } from './core/context.ts';
import type { Logger } from './core/logging.ts';
import { SECURITY_HEADERS } from './core/security/headers.ts';
import { API_PREFIX, DOCS_PREFIX, PUBLIC_API_ROUTES } from './public-routes.ts';
import { guardRoutes } from './auth/guard.ts';
import { DECISIONS_ONLY_REFUSAL, openToDecisionsOnly } from './decisions-only-routes.ts';
import { answerFrameworkError, clientErrorResponse, installErrorHandler } from './lib/http-errors.ts';
import { installTextGuard } from './lib/text-guard.ts';
import { installJsonDepthGuard } from './lib/json-depth.ts';
import { installRequestBodyGuards } from './lib/request-body.ts';
import { authRoutes } from './auth/routes.ts';
import { userRoutes } from './users/routes.ts';
import { itemRoutes } from './items/routes.ts';
import { utilRoutes } from './utils/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { installRequestTiming } from './metrics/http-timing.ts';

export interface BuildOptions {
  /** Request and error logs go here (core/logging.ts); none without it. */
  logger?: Logger;
  /** Folder of the built frontend to serve on the same origin (SPA fallback to index.html). */
  frontendDist?: string;
  /** Extra route modules (jobs, marketplaces) registered under the API prefix. */
  routes?: ((app: App, ctx: AppContext) => void)[];
}

/** Cache-Control of the built frontend's content-hashed files (frontend/dist/assets). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the first n hops". */
function trustProxyOption(value: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    // Typed as Fastify's own logger interface, which pino satisfies, so App stays one type.
    loggerInstance: opts.logger as FastifyBaseLogger | undefined,
    trustProxy: trustProxyOption(ctx.config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: (err, socket) => {
      if (socket.writable) socket.end(clientErrorResponse(err));
      else socket.destroy(err);
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('currentUser', null);
  installErrorHandler(app);
  installTextGuard(app);
  installRequestTiming(app);
  installJsonDepthGuard(app);
  installRequestBodyGuards(app, { idleMs: ctx.config.REQUEST_BODY_IDLE_TIMEOUT_MS, totalMs: ctx.config.REQUEST_BODY_TIMEOUT_MS });

  await app.register(helmet, SECURITY_HEADERS);
  await app.register(formbody);
  await app.register(multipart, {
    limits: { fileSize: ctx.config.UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024 },
  });
  await app.register(swagger, {
    openapi: {
      info: { title: ctx.config.PROJECT_NAME, version: '1.0.0' },
      components: {
        securitySchemes: {
          OAuth2PasswordBearer: { type: 'oauth2', flows: { password: { tokenUrl: `${API_PREFIX}/login/access-token`, scopes: {} } } },
        },
      },
    },
    // Multipart routes describe their body as plain JSON schema under 'x-multipart' (validated by hand).
    transform: (doc) => {
      const out = jsonSchemaTransform(doc);
      const multipart = (doc.schema as Record<string, unknown> | undefined)?.['x-multipart'];
      if (multipart && out.schema) {
        const schema = out.schema as Record<string, unknown>;
        delete schema['x-multipart'];
        schema.body = multipart;
      }
      return out;
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });

  const modules = [authRoutes, userRoutes, itemRoutes, utilRoutes, healthRoutes, metricsRoutes, ...(opts.routes ?? [])];
  await app.register(
    async (api) => {
      const typed = api.withTypeProvider<ZodTypeProvider>() as App;
      // Before any route: every route from here on is guarded unless listed public.
      guardRoutes(typed, ctx, PUBLIC_API_ROUTES, { allows: openToDecisionsOnly, refusal: DECISIONS_ONLY_REFUSAL });
      for (const register of modules) register(typed, ctx);
      typed.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: API_PREFIX },
  );

  const dist = opts.frontendDist;
  const spa = dist !== undefined && existsSync(path.join(dist, 'index.html'));
  if (spa)
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      // Vite names every file under assets/ by a hash of its content, so a browser may keep it for
      // good instead of asking again (a 304 round trip per file) on each page load; index.html, which
      // names the current files, keeps the default (revalidated every time).
      setHeaders: (reply, file) => {
        if (path.relative(dist, file).startsWith(`assets${path.sep}`)) reply.header('cache-control', IMMUTABLE);
      },
    });
  app.setNotFoundHandler((req, reply) => {
    // Client-side routes: any GET outside the API that is not a file gets the SPA's index.html.
    if (spa && req.method === 'GET' && !req.url.startsWith('/api/') && !req.url.startsWith(DOCS_PREFIX))
      return reply.sendFile('index.html');
    return reply.code(404).send({ detail: 'Not Found' });
  });
  return app;
}
