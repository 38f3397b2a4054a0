// `npm run sandbox`: the marketplace simulator on its own, for workers in other processes.
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { ConfigError } from '../config.ts';
import { marketplaceRegistry } from '../marketplaces/registry.ts';
import { sandboxOptionsFromEnv } from './options.ts';
import { startSandbox } from './server.ts';
import { sandboxBaseUrl } from './urls.ts';

try {
  const sandbox = await startSandbox(sandboxOptionsFromEnv());
  const o = sandbox.options;
  console.log(`Marketplace sandbox listening on ${sandbox.url} (simulated prices, not real ones)`);
  console.log(
    `latency ${o.latencyMs} ms, no offers ${o.noOfferShare}, 429 ${o.rate429Share} (Retry-After ${o.retryAfterSeconds} s), ` +
      `503 ${o.rate5xxShare}, timeouts ${o.timeoutShare}, malformed ${o.malformedShare}, seed ${o.seed}`,
  );
  console.log(`Point workers at it with SANDBOX_URL=${sandbox.url}, or per marketplace:`);
  for (const id of MARKETPLACE_IDS) console.log(`  ${marketplaceRegistry[id].envPrefix}_BASE_URL=${sandboxBaseUrl(sandbox.url, id)}`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
