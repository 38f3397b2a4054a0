// Writes the OpenAPI document the frontend's client is generated from (frontend/openapi.json).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config.ts';
import { createContext } from '../core/create-context.ts';
import { createLogger } from '../core/logging.ts';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import { productRoutes } from '../routes.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? path.resolve(here, '../../../frontend/openapi.json');

const config = loadConfig({ ...process.env, SECRET_KEY: 'x'.repeat(32), DATABASE_URL: '' });
const database = await openDatabase({});
const ctx = await createContext(config, {
  database,
  log: createLogger({ level: 'silent' }),
  mailer: { send: async () => {}, describe: () => 'none' },
});
const app = await buildApp(ctx, { routes: productRoutes });
await app.ready();
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await database.close();
console.log(`OpenAPI document written to ${out}`);
