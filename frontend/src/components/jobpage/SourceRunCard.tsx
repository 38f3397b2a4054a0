// One marketplace's run on the job page: progress in the spec's colours, lookups by status, when
// it started and finished, throughput, the time left at that pace, lookups waiting for a retry and the most frequent errors, each said as what it means for the books.
import { MARKETPLACES } from '@app/domain/marketplaces';
import { LOOKUP_STATUSES, progressColor, progressPercent } from '@app/domain/status';
import { Badge, Card, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import type { SourceRun } from '../../client/types.gen';
import { errorInBooks } from './error-wording';
import { formatDateTime } from '../../lib/format';
import { timeLeft } from '../../lib/progress';
import { BAR_SHADE } from '../jobs/SourceProgressCell';
import { StatusBadge } from '../marketplace/StatusBadge';

const dateOrDash = (d: string | null | undefined) => (d ? formatDateTime(d) : '—');

export function SourceRunCard({ run }: { run: SourceRun }) {
  const m = MARKETPLACES[run.marketplace];
  const percent = progressPercent(run.processed, run.total);
  const color = progressColor(percent);
  const facts: [string, string][] = [
    ['Started', dateOrDash(run.started_at)],
    ['Finished', dateOrDash(run.finished_at)],
    ['Throughput', run.throughput_per_minute === null ? '—' : `${run.throughput_per_minute} / min`],
    ['Time left', timeLeft(run) ?? '—'],
    ['Waiting for retry', String(run.retry_waiting)],
  ];
  return (
    <Card withBorder padding="md" component="section" aria-label={`${m.label} run`} data-source={m.id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {m.label}
          </Title>
          <Text size="sm" fw={600} data-testid="progress-percent" data-color={color}>
            {percent}%
          </Text>
        </Group>
        <Progress value={percent} color={BAR_SHADE[color]} aria-label={`${m.label} progress`} />
        <Text size="sm">
          {run.processed} of {run.total} looked up
        </Text>
        {run.quota_resumes_at && (
          // The marketplace's daily call quota is spent: its lookups wait, queued, until it resets.
          <Text size="sm" c="orange.8" fw={600} role="status" data-testid="quota-hint">
            Daily quota reached, resumes at {formatDateTime(run.quota_resumes_at)}
          </Text>
        )}
        <Group gap="xs" aria-label={`${m.label} lookups by status`}>
          {run.statuses.map((s) => (
            <Group key={s.status} gap={4} wrap="nowrap" data-status={s.status}>
              {/* A status this page does not know yet still shows, by its raw name. */}
              {(LOOKUP_STATUSES as readonly string[]).includes(s.status) ? (
                <StatusBadge status={s.status} />
              ) : (
                <Badge variant="dot" color="gray" size="sm" tt="none">
                  {s.status.replaceAll('_', ' ')}
                </Badge>
              )}
              <Text size="sm" fw={600}>
                {s.count}
              </Text>
            </Group>
          ))}
        </Group>
        <Table verticalSpacing={2} fz="sm" aria-label={`${m.label} timing`}>
          <Table.Tbody>
            {facts.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th fw="var(--mantine-font-weight-medium)">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {run.errors.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Last errors
            </Text>
            <Stack gap={2} component="ul" aria-label={`${m.label} errors`} m={0} p={0} style={{ listStyle: 'none' }}>
              {run.errors.map((e) => (
                // The adapter's own words stay on hover, for whoever reports the problem.
                <Text
                  component="li"
                  size="sm"
                  key={e.message}
                  title={`${e.message}${e.last_at ? `, last at ${formatDateTime(e.last_at)}` : ''}`}
                  style={{ wordBreak: 'break-word' }}
                >
                  {errorInBooks(e.message, e.count, m.label)}
                </Text>
              ))}
            </Stack>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
