// Shape of a job's run summary per marketplace (jobs/summary.ts).
import { z } from 'zod';
import { MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';

const Marketplace = z.enum(MARKETPLACE_IDS as [MarketplaceId, ...MarketplaceId[]]);

export const SourceRun = z
  .object({
    marketplace: Marketplace,
    total: z.number().int(),
    processed: z.number().int(),
    statuses: z.array(z.object({ status: z.string(), count: z.number().int() })),
    retry_waiting: z.number().int().meta({ description: 'Queued lookups that failed before and wait for their next try' }),
    started_at: z.date().nullable(),
    finished_at: z.date().nullable(),
    throughput_per_minute: z.number().nullable(),
    errors: z.array(z.object({ message: z.string(), count: z.number().int(), last_at: z.date().nullable() })),
    quota_resumes_at: z
      .date()
      .nullable()
      .meta({ description: "While the marketplace's daily call quota is spent and this run is unfinished: when its lookups resume" }),
  })
  .meta({ id: 'SourceRun' });

export const JobSummary = z
  .object({ job_id: z.number().int(), cost_per_book: z.number().nullable(), sources: z.array(SourceRun) })
  .meta({ id: 'JobSummary' });
