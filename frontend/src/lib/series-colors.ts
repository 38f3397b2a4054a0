// Each marketplace's colour in every chart (a job's prices, a book's history), kept apart from the
// charts so importing it never pulls in the charting library. Each registry entry declares its own
// (`color`, domain/src/marketplaces.ts); series-colors.test.ts checks no two series look alike.
import { byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';

export const SERIES_COLOR: Readonly<Record<MarketplaceId, string>> = byMarketplace((m) => m.color);
