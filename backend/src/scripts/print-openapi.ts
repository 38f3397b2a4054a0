// Writes the OpenAPI document the frontend's client is generated from (frontend/openapi.json).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.ts';
import { createContext } from '../create-context.ts';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import { productRoutes } from '../routes.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? path.resolve(here, '../../../frontend/openapi.json');

const config = loadConfig({ ...process.env, SECRET_KEY: 'x'.repeat(32), DATABASE_URL: '' });
const db = await openDatabase({});
const ctx = await createContext(config, { db, mailer: { send: async () => {}, describe: () => 'none' } });
const app = await buildApp(ctx, { routes: productRoutes });
await app.ready();
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await db.close();
console.log(`OpenAPI document written to ${out}`);
