// /admin/status (superusers): what /metrics and /health/workers read, in the browser, without a
// metrics token: per marketplace its queue, rate limit, daily budget and newest failures; every
// worker's heartbeat. Cards, one column on a phone. It refreshes itself every few seconds.
import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { MarketplaceStatus, WorkerHeartbeat } from '../../client/types.gen';
import { formatDateTime, parseServerDate } from '../../lib/format';
import { budgetText, formatWait, queuedText, waitsText } from './system-status';
import { PageTitle } from '../common/PageTitle';
import { RefreshControl } from '../common/RefreshControl';
import { JobLink } from '../jobs/JobLink';
import { systemStatusOptions } from '../../client/@tanstack/react-query.gen';

const REFRESH_MS = 10_000;

/** One figure: its name and value on a line (a description list's pair). */
function Figure({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text component="dt" size="sm" c="dimmed">
        {name}
      </Text>
      <Text component="dd" size="sm" ta="right" m={0}>
        {children}
      </Text>
    </Group>
  );
}

function MarketplaceCard({ m }: { m: MarketplaceStatus }) {
  const titleId = `status-${m.id}`;
  return (
    <Card withBorder component="section" aria-labelledby={titleId} padding="md">
      <Stack gap="xs">
        <Title order={3} size="h4" id={titleId}>
          {m.label}
        </Title>
        <Stack component="dl" gap={4} m={0}>
          <Figure name="Queued">{queuedText(m)}</Figure>
          <Figure name="Oldest waiting">{m.queued ? formatWait(m.oldest_queued_seconds) : '—'}</Figure>
          <Figure name="Next request slot in">{formatWait(m.next_request_wait_seconds)}</Figure>
          <Figure name="Rate-limit waits">{waitsText(m.rate_limit_waits)}</Figure>
          <Figure name="Refused for asking too often">{m.refusals.toLocaleString('en-US')}</Figure>
          {m.daily_budget && <Figure name="Daily budget">{budgetText(m.daily_budget, formatDateTime)}</Figure>}
        </Stack>
        <Title order={4} size="h6">
          Last errors
        </Title>
        {m.last_errors.length === 0 ? (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ) : (
          <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={`Last errors of ${m.label}`}>
            {m.last_errors.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same ISBN may fail in two jobs; the order is the list's
              <li key={i}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {e.message}
                </Text>
                <Text size="xs" c="dimmed">
                  {e.isbn} in <JobLink id={e.job_id}>job {e.job_id}</JobLink>, {formatDateTime(e.at)}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

function WorkerCard({ w, checkedAt }: { w: WorkerHeartbeat; checkedAt: string }) {
  // Ages from the server's clock, so a browser's wrong clock does not make a worker look dead.
  const since = (iso: string) => formatWait((parseServerDate(checkedAt).getTime() - parseServerDate(iso).getTime()) / 1000);
  return (
    <Card withBorder component="section" aria-label={`Worker ${w.host} ${w.pid}`} padding="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {w.host} · pid {w.pid}
          </Text>
          <Badge color={w.stale ? 'red' : 'green'} variant="dot" tt="none">
            {w.stale ? 'Stale' : 'Beating'}
          </Badge>
        </Group>
        <Stack component="dl" gap={4} m={0}>
          <Figure name="Last heartbeat">{since(w.last_seen)} ago</Figure>
          <Figure name="Running for">{since(w.started_at)}</Figure>
          <Figure name="Lookups in flight">{w.lookups_in_flight}</Figure>
        </Stack>
      </Stack>
    </Card>
  );
}

export function SystemStatusPage() {
  const status = useQuery({
    ...systemStatusOptions(),
    refetchInterval: REFRESH_MS,
  });
  const data = status.data;
  return (
    <Stack gap="md">
      <PageTitle>System status</PageTitle>
      <Text size="sm" c="dimmed">
        Queues, rate limits, daily budgets and failures per marketplace, and the workers’ heartbeats. Rate-limit waits and refusals are this
        server’s worker’s since it started.
      </Text>
      <RefreshControl onRefresh={() => void status.refetch()} isFetching={status.isFetching} updatedAt={status.dataUpdatedAt} />
      {data && (
        <>
          <Title order={2} size="h3">
            Marketplaces
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }}>
            {data.marketplaces.map((m) => (
              <MarketplaceCard key={m.id} m={m} />
            ))}
          </SimpleGrid>
          <Title order={2} size="h3">
            Workers
          </Title>
          {data.workers.length === 0 ? (
            <Alert color="orange" variant="light">
              No worker is running: queued lookups wait until one starts.
            </Alert>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }}>
              {data.workers.map((w) => (
                <WorkerCard key={w.id} w={w} checkedAt={data.checked_at} />
              ))}
            </SimpleGrid>
          )}
        </>
      )}
    </Stack>
  );
}
