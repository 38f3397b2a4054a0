// Jobs: the filter/sort field table of /jobs and the page sizes shared by UI and API.
import { col, type FieldDef } from './fields.ts';

// Every job column is NOT NULL.
export const JOB_FIELDS: readonly FieldDef[] = [
  col('id', 'Job ID', 'number'),
  col('name', 'Name'),
  col('input_filename', 'Input Filename'),
  col('created_at', 'Created At', 'date'),
  col('updated_at', 'Updated At', 'date'),
].map((f) => ({ ...f, required: true }));

/** Page sizes (docs/requirements.md, Tables; the audit trail's 20 is ours: events are short rows). */
export const PAGE_SIZE = { jobs: 10, lookups: 10, items: 5, users: 5, audit: 20, generic: 100 } as const;

export const UPLOAD_EXTENSIONS = ['.csv', '.xlsx', '.xls'] as const;
