// Each selling marketplace's colour in every chart (a job's prices, a book's history), kept apart
// from the charts so importing it never pulls in the charting library.
import type { MarketplaceId } from '@app/domain/marketplaces';

export const SERIES_COLOR: Partial<Record<MarketplaceId, string>> = { abe_books: 'red.7', biblio: 'blue.6', alibris: 'teal.7' };
