// The {market} path segment of the per-marketplace API (/api/v1/{market}/…): one of the registry's
// slugs. Anything else is a 422 naming `market`, like any other invalid parameter.
import { z } from 'zod';
import { MARKETPLACE_SLUGS } from '@app/domain/marketplaces';

export const MarketSlug = z.enum(MARKETPLACE_SLUGS).meta({ id: 'MarketSlug', description: 'The marketplace: its URL segment' });

export const MarketParam = z.object({ market: MarketSlug });
