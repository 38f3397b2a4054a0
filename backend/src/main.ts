// The API process: serves the API and the built frontend on one origin.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './create-context.ts';
import { buildApp } from './app.ts';
import { ensureFirstSuperuser } from './users/first-superuser.ts';
import { productRoutes } from './routes.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config);
  const admin = await ensureFirstSuperuser(ctx.users, config.FIRST_SUPERUSER, config.FIRST_SUPERUSER_PASSWORD);
  const app = await buildApp(ctx, {
    logger: { level: config.LOG_LEVEL },
    frontendDist: config.SERVE_FRONTEND ? path.resolve(here, '../../frontend/dist') : undefined,
    routes: productRoutes,
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;

  const lines = [
    '',
    `  ${config.PROJECT_NAME} is running at http://localhost:${port}`,
    `  Database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${path.resolve(config.DATA_DIR, 'pglite')}`}`,
    `  Email: ${ctx.mailer.describe()}`,
    `  API docs: http://localhost:${port}/docs`,
    admin.generatedPassword
      ? `  Log in as ${admin.email} with the generated password ${admin.generatedPassword} (shown once; set FIRST_SUPERUSER_PASSWORD to choose it)`
      : `  Log in as ${admin.email} with FIRST_SUPERUSER_PASSWORD${admin.created ? '' : ' (or the password you set since)'}`,
    '',
  ];
  console.log(lines.join('\n'));

  const shutdown = async () => {
    await app.close();
    await ctx.db.close();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
