// Helpers for the env sections read outside config.ts (marketplaces, sandbox, worker tuning).
import type { z } from 'zod';
import { ConfigError } from '../config.ts';

/** An empty variable counts as unset, as in .env files where `KEY=` is left blank. */
export const blankAsUnset = (v: unknown) => (v === '' ? undefined : v);

/** Parses the environment with `schema`; throws one ConfigError listing every problem. */
export function parseEnvSection<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv, what: string): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid ${what} configuration:\n${lines.join('\n')}`);
}
