// The job's decisions: the rule set version it was judged with and when, a warning when its prices
// changed since, judging with a chosen rule set or again with the same version, and per outcome its
// count (a click filters the comparison to it) and its rows as CSV (the buy list).
import { COMPARISON_FIELDS, DECISION_FIELD } from '@app/domain/comparison';
import { Alert, Button, Card, Group, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { judgeJob, rejudgeJob } from '../../client/sdk.gen';
import type { JobDecisions, JobPublic } from '../../client/types.gen';
import { useTableSearch } from '../../hooks/useTableSearch';
import { fileTimestamp } from '../../lib/download';
import type { Filter } from '../../lib/filters';
import { formatDateTime } from '../../lib/format';
import { invalidateAll, jobPageKeys } from '../../lib/query-keys';
import type { TableSearch } from '../../lib/table-search';
import { CsvFileButton } from '../common/CsvFileButton';
import { jobDownloadComparisonCsv } from './comparison-api';
import { DecisionBadge, decisionColors } from './DecisionBadge';
import { RuleSetPicker } from './RuleSetPicker';
import { useJobDecisions } from './useJobPage';

/**
 * Brings the comparison's heading to the top of the screen, where the filtered rows follow: on a
 * phone the counts and the table are screens apart. Smooth unless the user asked for less motion.
 */
export function showComparison() {
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  document.getElementById('comparison-title')?.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
}

/** The comparison filter selecting one decision: the buy list's rows. */
export const decisionFilter = (outcome: string): Filter => ({ field: DECISION_FIELD, operator: 'equals', value: outcome });

function judgedWith(d: JobDecisions): string {
  if (!d.rule_set) return 'Not judged yet: choose a rule set to decide every row.';
  const version = `${d.rule_set.name}, version ${d.rule_set.version}`;
  return d.judged_at ? `Judged with ${version} on ${formatDateTime(d.judged_at)}.` : `To be judged with ${version} once its lookups end.`;
}

export function DecisionsCard({ job, search, live }: { job: JobPublic; search: TableSearch; live: boolean }) {
  const decisions = useJobDecisions(job.id, live);
  const { setFilters } = useTableSearch(search, COMPARISON_FIELDS);
  const [ruleSetId, setRuleSetId] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const refresh = () => invalidateAll(queryClient, jobPageKeys(job.id));
  const judge = useMutation({
    mutationFn: async () => (await judgeJob({ path: { id: job.id }, body: { rule_set_id: Number(ruleSetId) } })).data,
    onSuccess: refresh,
  });
  const rejudge = useMutation({ mutationFn: async () => (await rejudgeJob({ path: { id: job.id } })).data, onSuccess: refresh });
  const d = decisions.data;
  const colors = decisionColors(d?.outcomes);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="decisions-title">
      <Stack gap="sm">
        <Title order={3} id="decisions-title">
          Decisions
        </Title>
        {d && <Text size="sm">{judgedWith(d)}</Text>}
        {d?.stale && (
          // The light yellow's own title colour fails contrast on its background: the text colour instead.
          <Alert color="yellow" title="Prices changed since these decisions" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            <Group justify="space-between">
              <Text size="sm">Re-judge to decide with the new prices.</Text>
              <Button size="xs" onClick={() => rejudge.mutate()} loading={rejudge.isPending}>
                Re-judge now
              </Button>
            </Group>
          </Alert>
        )}
        <Group align="flex-end">
          <RuleSetPicker value={ruleSetId} onChange={setRuleSetId} />
          <Button onClick={() => judge.mutate()} disabled={!ruleSetId} loading={judge.isPending}>
            Judge
          </Button>
          <Button variant="default" onClick={() => rejudge.mutate()} disabled={!d?.rule_set} loading={rejudge.isPending}>
            Re-judge
          </Button>
        </Group>
        {d && d.outcomes.length > 0 && (
          <Table verticalSpacing={4} fz="sm" aria-label="Decision counts" maw={560}>
            <Table.Tbody>
              {d.outcomes.map((o) => (
                <Table.Tr key={o.outcome} data-outcome={o.outcome}>
                  <Table.Td>
                    <UnstyledButton
                      onClick={() => {
                        setFilters([decisionFilter(o.outcome)]);
                        showComparison();
                      }}
                      title="Show only these rows"
                    >
                      <Group gap="xs" wrap="nowrap">
                        <DecisionBadge outcome={o.outcome} colors={colors} />
                        <Text size="sm" fw={600} data-testid="decision-count">
                          {o.count}
                        </Text>
                      </Group>
                    </UnstyledButton>
                  </Table.Td>
                  <Table.Td ta="right">
                    <CsvFileButton
                      size="xs"
                      label={`${o.outcome} as CSV`}
                      fetchCsv={() => jobDownloadComparisonCsv(job.id, { filters: [decisionFilter(o.outcome)] })}
                      fallbackName={() => `job_${job.id}_comparison_${fileTimestamp(new Date())}.csv`}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
