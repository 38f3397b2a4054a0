// Shapes of the job control API (jobs/control-routes.ts).
import { z } from 'zod';
import { byMarketplace } from '@app/domain/marketplaces';
import { MarketSlug } from '../marketplaces/market-param.ts';
import { JobPublic } from './schemas.ts';

/** An action on the job's lookups answers the job as it now is and how many lookups the action moved. */
export const JobActionResult = JobPublic.extend({
  lookups_affected: z.number().int().describe('Lookups cancelled, or queued again by a retry or re-price'),
}).meta({ id: 'JobActionResult' });

/** Retry and re-price act on every marketplace of the job, or on the one named. */
export const OptionalMarketQuery = z.object({
  market: MarketSlug.optional().describe('Only this marketplace (one the job uses); all of the job’s marketplaces when left out'),
});

export const RetryableLookups = z
  .object({ failed: z.number().int(), cancelled: z.number().int() })
  .meta({ id: 'RetryableLookups', description: 'Lookups a retry would queue again' });

export const JobRetryableCounts = z.object(byMarketplace(() => RetryableLookups)).meta({ id: 'JobRetryableCounts' });
