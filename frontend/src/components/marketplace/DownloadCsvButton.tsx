// The filtered, sorted lookups as a CSV file named by the server; a failure is only
// logged (docs/requirements.md, Tables).
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { csvFilename, filenameFromDisposition, saveFile } from '../../lib/download';
import type { Filter } from '../../lib/filters';
import { marketplaceApi } from '../../lib/marketplace-api';
import type { SortState } from '../../lib/sort';

export function DownloadCsvButton({ marketplace, filters, sort }: { marketplace: MarketplaceInfo; filters: Filter[]; sort: SortState }) {
  return (
    <CsvFileButton
      fetchCsv={() => marketplaceApi(marketplace.slug).downloadCsv({ filters, ...sort })}
      fallbackName={() => csvFilename(marketplace.csvPrefix)}
    />
  );
}

/** A "Download CSV" button (or `label`) saving what `fetchCsv` answers, under the server's name (else `fallbackName`). */
export function CsvFileButton({
  fetchCsv,
  fallbackName,
  label = 'Download CSV',
  size,
}: {
  fetchCsv: () => Promise<{ blob: Blob; disposition: string | null }>;
  fallbackName: () => string;
  label?: string;
  size?: 'xs' | 'sm';
}) {
  const download = useMutation({
    mutationFn: async () => {
      const { blob, disposition } = await fetchCsv();
      saveFile(blob, filenameFromDisposition(disposition) ?? fallbackName());
    },
    meta: { toastOnError: false },
    onError: (err) => console.error('CSV download failed:', err),
  });
  return (
    <Button
      variant="default"
      size={size}
      leftSection={<IconDownload size={16} />}
      loading={download.isPending}
      onClick={() => download.mutate()}
    >
      {label}
    </Button>
  );
}
