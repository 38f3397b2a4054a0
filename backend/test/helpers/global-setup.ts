// Vitest global setup: one PostgreSQL server for the whole run, handed to test files via provide/inject.
import type { TestProject } from 'vitest/node';
import { findPostgres } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { adminUrl, stop } = await findPostgres();
  project.provide('pgAdminUrl', adminUrl);
  return stop;
}
