// Where the database layer reports trouble: its own file, so client.ts and the parts it opens
// (csv-exporter.ts, listen.ts) share the type without importing each other.

/** Where database trouble that no request is waiting for (a dropped idle connection) is reported. */
export interface DbLog {
  warn(message: string): void;
  error(message: string): void;
}

export const consoleDbLog: DbLog = { warn: (m) => console.warn(m), error: (m) => console.error(m) };
