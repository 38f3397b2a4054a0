// Each marketplace's colour in every chart (a job's prices, a book's history), kept apart from the
// charts so importing it never pulls in the charting library. Every marketplace has its own (the
// Record makes a new one a compile error until it has a colour), so no two series look alike.
import type { MarketplaceId } from '@app/domain/marketplaces';

export const SERIES_COLOR: Readonly<Record<MarketplaceId, string>> = {
  abe_books: 'red.7',
  biblio: 'blue.6',
  alibris: 'teal.7',
  pallet_iq: 'gray.7',
  amazon: 'orange.7',
  ebay: 'grape.7',
};
