// The filtered, sorted lookups as a CSV file named by the server; a failure is only
// logged (docs/requirements.md, Tables).
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { csvFilename } from '../../lib/download';
import type { Filter } from '../../lib/filters';
import { marketplaceApi } from './marketplace-api';
import type { SortState } from '../../lib/sort';
import { CsvFileButton } from '../common/CsvFileButton';

export function DownloadCsvButton({ marketplace, filters, sort }: { marketplace: MarketplaceInfo; filters: Filter[]; sort: SortState }) {
  return (
    <CsvFileButton
      fetchCsv={() => marketplaceApi(marketplace.slug).downloadCsv({ filters, ...sort })}
      fallbackName={() => csvFilename(marketplace.csvPrefix)}
    />
  );
}
