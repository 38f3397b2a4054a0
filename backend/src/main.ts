// The API process: serves the API and the built frontend on one origin, with one worker and (without
// marketplace keys) the sandbox in-process.
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, coreConfig } from './core/config.ts';
import { createContext } from './core/create-context.ts';
import { createLogger } from './core/logging.ts';
import { closeApp, stopOnSignals, withCutOff } from './core/shutdown.ts';
import { apiStartsSandbox, loadEnvironment } from './environment.ts';
import { buildApp } from './app.ts';
import { ensureFirstSuperuser } from './users/first-superuser.ts';
import { productRoutes } from './routes.ts';
import { marketplaceSettings } from './marketplaces/env.ts';
import { createAdapters, simulatedMarketplaces } from './marketplaces/registry.ts';
import { bookDetailsSettings } from './book-details/options.ts';
import { keepaSettings } from './keepa/options.ts';
import { startMarketplaceSandbox } from './marketplaces/sandbox.ts';
import { startWorker } from './worker/worker.ts';
import { inBackground } from './db/work-lane.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const env = loadEnvironment('api');
  const config = coreConfig(env);
  const log = createLogger({ level: config.LOG_LEVEL });
  // Without marketplace credentials the adapters talk to a local sandbox speaking their real wire formats.
  const sandbox = apiStartsSandbox(env) ? await startMarketplaceSandbox(env.sandbox.options) : undefined;
  const settings = marketplaceSettings(env.marketplaces, sandbox?.url ?? env.sandbox.url);
  const simulated = simulatedMarketplaces(settings);
  const dailyCallBudgets = Object.fromEntries(
    MARKETPLACE_IDS.flatMap((id) => (settings[id].dailyCallBudget === undefined ? [] : [[id, settings[id].dailyCallBudget] as const])),
  );
  const ctx = await createContext(config, { log, pricesSimulated: simulated.length > 0, dailyCallBudgets });
  const admin = await ensureFirstSuperuser(ctx.db, config.FIRST_SUPERUSER, config.FIRST_SUPERUSER_PASSWORD);
  const app = await buildApp(ctx, {
    logger: log,
    frontendDist: config.SERVE_FRONTEND ? path.resolve(here, '../../frontend/dist') : undefined,
    routes: productRoutes,
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  const keepaOf = (sandboxUrl: string | undefined) => {
    const keepa = keepaSettings(env.keepa, sandboxUrl, simulatedMarketplaces(settings).length === MARKETPLACE_IDS.length);
    return keepa ? { keepa } : undefined;
  };
  const worker = env.worker.runInApi
    ? // Background work on the embedded database's one session: pages and health checks go first.
      inBackground(() =>
        startWorker({
          db: ctx.db,
          adapters: createAdapters(settings),
          settings,
          log: log.child({ name: 'worker' }),
          jobEvents: ctx.jobEvents,
          // On the embedded database this worker shares the API's one connection: it waits while a big
          // list is written (a worker process on PostgreSQL has its own connections and never waits).
          ...(ctx.embedded ? { giveWayTo: ctx.writes } : {}),
          bulk: ctx.bulk,
          bookDetails: bookDetailsSettings(
            env.bookDetails,
            sandbox?.url ?? env.sandbox.url,
            simulatedMarketplaces(settings).length === MARKETPLACE_IDS.length,
          ),
          ...(keepaOf(sandbox?.url ?? env.sandbox.url) ?? {}),
          ...env.worker.tuning,
          reuseWindowMs: config.LOOKUP_REUSE_WINDOW,
          listen: ctx.listen,
          stopTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
          digest: { mailer: ctx.mailer, secretKey: config.SECRET_KEY, linkBase: config.FRONTEND_HOST, projectName: config.PROJECT_NAME },
        }),
      )
    : undefined;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;

  // The banner is for the person who ran `npm start`, so it goes to the terminal as text.
  const lines = [
    '',
    `  ${config.PROJECT_NAME} is running at http://localhost:${port}`,
    `  Database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${path.resolve(config.DATA_DIR, 'pglite')}`}`,
    `  Email: ${ctx.mailer.describe()}`,
    `  API docs: http://localhost:${port}/docs`,
    `  Marketplaces: ${simulated.length ? `${simulated.join(', ')} simulated by the local sandbox at ${sandbox?.url ?? env.sandbox.url} (set their API keys for real prices)` : 'real APIs'}`,
    `  Worker: ${worker ? 'one in this process (add more with `npm run worker` on PostgreSQL)' : 'off (RUN_WORKER=false)'}`,
    admin.generatedPassword
      ? `  Log in as ${admin.email} with the generated password ${admin.generatedPassword} (shown once; set FIRST_SUPERUSER_PASSWORD to choose it)`
      : `  Log in as ${admin.email} with FIRST_SUPERUSER_PASSWORD${admin.created ? '' : ' (or the password you set since)'}`,
    '',
  ];
  console.log(lines.join('\n'));

  // Stop accepting at once; requests in flight and the worker's lookups get SHUTDOWN_TIMEOUT_MS
  // (lookups still running then go back to the queue), after which open connections are cut.
  stopOnSignals(log, async () => {
    await withCutOff(Promise.all([worker?.stop(), closeApp(app)]), config.SHUTDOWN_TIMEOUT_MS, () => app.server.closeAllConnections());
    await sandbox?.close();
    await ctx.closeDatabase();
  });
}

main().catch((err: NodeJS.ErrnoException) => {
  if (err instanceof ConfigError) console.error(err.message);
  else if (err.code === 'EADDRINUSE')
    console.error(`Port ${process.env.PORT ?? 8000} is already in use: stop the other program or choose another with PORT=…`);
  else console.error(err);
  process.exit(1);
});
