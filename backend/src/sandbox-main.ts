// `npm run sandbox`: the marketplace simulator on its own, for workers in other processes.
import { ConfigError } from './core/config.ts';
import { createLogger } from './core/logging.ts';
import { loadEnvironment } from './environment.ts';
import { startMarketplaceSandbox } from './marketplaces/sandbox.ts';

async function main(): Promise<void> {
  const env = loadEnvironment('sandbox');
  const log = createLogger({ level: env.server.LOG_LEVEL, name: 'sandbox' });
  const sandbox = await startMarketplaceSandbox(env.sandbox.options);
  const o = sandbox.options;
  log.info(
    {
      latencyMs: o.latencyMs,
      noOfferShare: o.noOfferShare,
      rate429Share: o.rate429Share,
      retryAfterSeconds: o.retryAfterSeconds,
      rate5xxShare: o.rate5xxShare,
      timeoutShare: o.timeoutShare,
      malformedShare: o.malformedShare,
      seed: o.seed,
    },
    `marketplace sandbox listening on ${sandbox.url} (simulated prices, not real ones); point workers at it with SANDBOX_URL=${sandbox.url}`,
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
