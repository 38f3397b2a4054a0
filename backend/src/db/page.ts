// Paging arguments, as every list route takes them (lib/api-schemas.ts Paging) and every list query reads them.

/** Rows to pass over, then rows to return. */
export interface Page {
  skip: number;
  limit: number;
}
