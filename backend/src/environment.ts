// The environment of our three processes (the API, extra workers, the standalone sandbox): the core
// sections plus each feature's own section, parsed as one schema. This file is the composition root
// that hands the feature sections to core, so core never imports a feature; each process adds its
// own rules across sections and gets every problem in one message.
import { parseConfig, type ConfigRule, type ParsedConfig } from './core/config.ts';
import { everyMarketplaceReachable, marketplacesConfigSection, marketplacesNeedingSandbox } from './marketplaces/env.ts';
import { bookDetailsConfigSection } from './book-details/options.ts';
import { keepaConfigSection } from './keepa/options.ts';
import { sandboxConfigSection } from './sandbox/options.ts';
import { workerConfigSection } from './worker/options.ts';

export const FEATURE_SECTIONS = {
  marketplaces: marketplacesConfigSection,
  bookDetails: bookDetailsConfigSection,
  keepa: keepaConfigSection,
  worker: workerConfigSection,
  sandbox: sandboxConfigSection,
};
export type Environment = ParsedConfig<typeof FEATURE_SECTIONS>;
type Rule = ConfigRule<typeof FEATURE_SECTIONS>;

/** The API starts a sandbox when told to, or (auto) when a marketplace needs one and SANDBOX_URL names none. */
export function apiStartsSandbox(e: Pick<Environment, 'sandbox' | 'marketplaces'>): boolean {
  return e.sandbox.run === 'true' || (e.sandbox.run === 'auto' && !e.sandbox.url && marketplacesNeedingSandbox(e.marketplaces).length > 0);
}

const workerNeedsPostgres: Rule = {
  reads: ['database'],
  check(e, problem) {
    if (e.database.DATABASE_URL) return;
    problem(
      'database',
      'DATABASE_URL',
      "not set: an extra worker must share the API's PostgreSQL database (DATABASE_URL=postgres://user:password@host:5432/dbname). " +
        'Without it the API (`npm start`) uses its embedded database and already runs a worker of its own.',
    );
  },
};

const RULES = {
  api: [everyMarketplaceReachable((env) => env.RUN_SANDBOX !== 'false')],
  worker: [workerNeedsPostgres, everyMarketplaceReachable(() => false)],
  sandbox: [],
} satisfies Record<string, Rule[]>;

/** Parses the whole environment for one of our processes; throws one ConfigError listing every problem. */
export function loadEnvironment(process_: keyof typeof RULES, env: NodeJS.ProcessEnv = process.env): Environment {
  return parseConfig(FEATURE_SECTIONS, env, RULES[process_]);
}
