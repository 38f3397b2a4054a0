// Shapes every route module shares: error bodies, plain messages and skip/limit paging.
import { z } from 'zod';

export const Message = z.object({ message: z.string() }).meta({ id: 'Message' });
export const HttpErrorBody = z.object({ detail: z.unknown() }).meta({ id: 'HTTPError' });

export const Paging = z.object({
  skip: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** A list's total, exact up to db/bounded-count.ts's bound; count_exact false means "more than count". */
export const CountFields = {
  count: z.number().int(),
  count_exact: z.boolean(),
};

/**
 * A 200 that is a downloaded CSV file. Documented as binary so the generated client hands it over
 * as a Blob (parseAs: 'blob') without casts.
 */
export function csvFileResponse(description: string) {
  return { description, content: { 'text/csv': { schema: z.string().meta({ format: 'binary' }) } } };
}
