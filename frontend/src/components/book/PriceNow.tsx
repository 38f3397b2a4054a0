// "Price it now" on a book's page: a one-book job of the marketplaces ticked (all by default), then
// its progress until every marketplace has answered, when the page reads the book again.
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import { Button, Checkbox, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { priceBook } from '../../client/sdk.gen';
import { isLive, useJob } from '../jobpage/useJobPage';
import { JobLink } from '../jobs/JobLink';
import { bookKey } from './useBook';

export function PriceNow({ isbn }: { isbn: string }) {
  const [chosen, setChosen] = useState<Record<MarketplaceId, boolean>>(() => byMarketplace(() => true));
  const [jobId, setJobId] = useState<number | null>(null);
  const price = useMutation({
    mutationFn: async () => (await priceBook({ path: { isbn }, body: chosen })).data,
    onSuccess: (job) => setJobId(job.id),
  });
  const anyChosen = Object.values(chosen).some(Boolean);
  return (
    <Stack gap="sm">
      <Group gap="md" role="group" aria-label="Marketplaces to ask">
        {MARKETPLACE_LIST.map((m) => (
          <Checkbox
            key={m.id}
            label={m.label}
            checked={chosen[m.id]}
            onChange={(e) => {
              const checked = e.currentTarget.checked;
              setChosen((c) => ({ ...c, [m.id]: checked }));
            }}
          />
        ))}
      </Group>
      <Group>
        <Button onClick={() => price.mutate()} loading={price.isPending} disabled={!anyChosen}>
          Price it now
        </Button>
      </Group>
      {jobId !== null && <Pricing jobId={jobId} isbn={isbn} />}
    </Stack>
  );
}

/** The one-book job while it runs (live events or polling refresh it, as on the job's page). */
function Pricing({ jobId, isbn }: { jobId: number; isbn: string }) {
  const job = useJob(jobId);
  const queryClient = useQueryClient();
  const live = job.data === undefined || isLive(job.data);
  useEffect(() => {
    if (!live) void queryClient.invalidateQueries({ queryKey: bookKey(isbn) });
  }, [live, isbn, queryClient]);
  const link = <JobLink id={jobId}>job {jobId}</JobLink>;
  return (
    <Group gap="xs" role="status">
      {live && <Loader size="xs" aria-hidden />}
      <Text size="sm">
        {live ? 'Pricing this book' : 'Priced'} ({link}).
      </Text>
    </Group>
  );
}
