// "Price it now" on a book's page: a one-book job of the marketplaces ticked (all by default), then
// its progress until every marketplace has answered, when the page reads the book again. An answer
// from the reuse window is taken instead of asking again (it spends no quota): the page then says so,
// with the time it was asked, and offers "Ask the marketplaces now", a job that reuses nothing.
import { MARKETPLACES, MARKETPLACE_LIST, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import { Button, Checkbox, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { priceBook } from '../../client/sdk.gen';
import { isLive, useJob } from '../jobpage/useJobPage';
import { JobLink } from '../jobs/JobLink';
import { formatDateTime } from '../../lib/format';
import { useBook } from './useBook';
import { bookKeys, invalidateAll } from '../../lib/query-keys';

export function PriceNow({ isbn }: { isbn: string }) {
  const [chosen, setChosen] = useState<Record<MarketplaceId, boolean>>(() => byMarketplace(() => true));
  const [jobId, setJobId] = useState<number | null>(null);
  const price = useMutation({
    mutationFn: async (fresh: boolean) => (await priceBook({ path: { isbn }, body: { ...chosen, fresh } })).data,
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
        <Button onClick={() => price.mutate(false)} loading={price.isPending} disabled={!anyChosen}>
          Price it now
        </Button>
      </Group>
      {jobId !== null && <Pricing jobId={jobId} isbn={isbn} onAskNow={() => price.mutate(true)} asking={price.isPending} />}
    </Stack>
  );
}

/** The one-book job while it runs (live events or polling refresh it, as on the job's page), then what it did. */
function Pricing({ jobId, isbn, onAskNow, asking }: { jobId: number; isbn: string; onAskNow: () => void; asking: boolean }) {
  const job = useJob(jobId);
  const book = useBook(isbn);
  const queryClient = useQueryClient();
  const live = job.data === undefined || isLive(job.data);
  useEffect(() => {
    if (!live) void invalidateAll(queryClient, bookKeys(isbn));
  }, [live, isbn, queryClient]);
  const link = <JobLink id={jobId}>job {jobId}</JobLink>;
  if (live)
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm">Pricing this book ({link}).</Text>
      </Group>
    );
  // The book is read again once the job is done: until then its answers are the ones from before.
  if (book.isFetching)
    return (
      <Text size="sm" role="status">
        Priced ({link}).
      </Text>
    );
  // An answer last observed before the job began was reused, not asked again (a reuse writes no observation).
  const started = job.data ? new Date(job.data.created_at).getTime() : 0;
  const reused = (book.data?.marketplaces ?? []).filter(
    (m) => job.data?.[m.marketplace]?.enabled && m.latest && new Date(m.latest.observed_at).getTime() < started,
  );
  if (reused.length === 0)
    return (
      <Text size="sm" role="status">
        Priced: every marketplace asked now ({link}).
      </Text>
    );
  return (
    <Stack gap={6} role="status" align="flex-start">
      <Text size="sm">
        Priced ({link}), but {reused.map((m) => MARKETPLACES[m.marketplace].label).join(', ')}{' '}
        {reused.length === 1 ? 'gave its' : 'gave their'} recent answer again, asked{' '}
        {/* Answers fetched together share a time: each time once. */}
        {[...new Set(reused.map((m) => (m.latest ? formatDateTime(m.latest.observed_at) : '')))].join(', ')}.
      </Text>
      <Button size="xs" variant="light" onClick={onAskNow} loading={asking}>
        Ask the marketplaces now
      </Button>
    </Stack>
  );
}
