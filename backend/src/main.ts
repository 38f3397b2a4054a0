// The API process: serves the API and the built frontend on one origin.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './create-context.ts';
import { buildApp } from './app.ts';
import { ensureFirstSuperuser } from './users/first-superuser.ts';
import { productRoutes } from './routes.ts';
import { createAdapters, needsSandbox, settingsFromEnv, simulatedMarketplaces } from './marketplaces/registry.ts';
import { sandboxOptionsFromEnv } from './sandbox/options.ts';
import { startSandbox } from './sandbox/server.ts';
import { workerOptionsFromEnv } from './worker/options.ts';
import { startWorker } from './worker/worker.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig();
  // Without marketplace credentials the adapters talk to a local sandbox speaking their real wire formats.
  const runSandbox = config.RUN_SANDBOX === 'true' || (config.RUN_SANDBOX === 'auto' && needsSandbox(process.env));
  const sandbox = runSandbox ? await startSandbox({ ...sandboxOptionsFromEnv(process.env), port: config.SANDBOX_PORT }) : undefined;
  const settings = settingsFromEnv(process.env, { sandboxUrl: sandbox?.url });
  const simulated = simulatedMarketplaces(settings);
  const ctx = await createContext(config, { pricesSimulated: simulated.length > 0 });
  const admin = await ensureFirstSuperuser(ctx.users, config.FIRST_SUPERUSER, config.FIRST_SUPERUSER_PASSWORD);
  const app = await buildApp(ctx, {
    logger: { level: config.LOG_LEVEL },
    frontendDist: config.SERVE_FRONTEND ? path.resolve(here, '../../frontend/dist') : undefined,
    routes: productRoutes,
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  const workerLog = {
    info: (msg: string) => app.log.info(msg),
    warn: (msg: string) => app.log.warn(msg),
    error: (msg: string) => app.log.error(msg),
  };
  const worker = config.RUN_WORKER
    ? startWorker({ db: ctx.db, adapters: createAdapters(settings), settings, log: workerLog, ...workerOptionsFromEnv(process.env) })
    : undefined;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;

  const lines = [
    '',
    `  ${config.PROJECT_NAME} is running at http://localhost:${port}`,
    `  Database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${path.resolve(config.DATA_DIR, 'pglite')}`}`,
    `  Email: ${ctx.mailer.describe()}`,
    `  API docs: http://localhost:${port}/docs`,
    `  Marketplaces: ${simulated.length ? `${simulated.join(', ')} simulated by the local sandbox${sandbox ? ` at ${sandbox.url}` : ''} (set their API keys for real prices)` : 'real APIs'}`,
    `  Worker: ${worker ? 'one in this process (add more with `npm run worker` on PostgreSQL)' : 'off (RUN_WORKER=false)'}`,
    admin.generatedPassword
      ? `  Log in as ${admin.email} with the generated password ${admin.generatedPassword} (shown once; set FIRST_SUPERUSER_PASSWORD to choose it)`
      : `  Log in as ${admin.email} with FIRST_SUPERUSER_PASSWORD${admin.created ? '' : ' (or the password you set since)'}`,
    '',
  ];
  console.log(lines.join('\n'));

  const shutdown = async () => {
    await worker?.stop();
    await app.close();
    await sandbox?.close();
    await ctx.closeDatabase();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((err: NodeJS.ErrnoException) => {
  if (err instanceof ConfigError) console.error(err.message);
  else if (err.code === 'EADDRINUSE') console.error(`Port ${process.env.PORT ?? 8000} is already in use: stop the other program or choose another with PORT=…`);
  else console.error(err);
  process.exit(1);
});
