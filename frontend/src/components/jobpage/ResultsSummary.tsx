// The top of a job's page: what was decided. Per decision its books and their share of the job,
// what they cost (books × the cost per book) and their estimated profit; then how many books each
// marketplace is the best source for. A decision opens the comparison filtered to it.
import { COMPARISON_FIELDS } from '@app/domain/comparison';
import { Card, Group, Skeleton, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import type { DecisionResult, JobPublic, ResultFigures } from '../../client/types.gen';
import { useTableSearch } from '../../hooks/useTableSearch';
import { booksText } from './error-wording';
import { formatMoney } from '../../lib/format';
import { shareText } from './job-results';
import type { TableSearch } from '../../lib/table-search';
import { DecisionBadge, decisionColors } from './DecisionBadge';
import { decisionFilter, showComparison } from './DecisionsCard';
import { useJobDecisions, useJobResults } from './useJobPage';

const usd = (v: number | null) => (v === null ? '—' : formatMoney(v, 'USD'));

function Figures({ row, total }: { row: ResultFigures; total: number }) {
  return (
    <>
      {/* Books and their share in one column: a phone has room for four. */}
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <span data-testid="result-books">{row.books.toLocaleString('en-US')}</span>{' '}
        <Text span size="xs" c="dimmed" data-testid="result-share">
          {shareText(row.books, total)}
        </Text>
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="result-cost">
        {usd(row.cost)}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="result-profit">
        {row.priced > 0 ? usd(row.estimated_profit) : '—'}
      </Table.Td>
    </>
  );
}

export function ResultsSummary({ job, search, live }: { job: JobPublic; search: TableSearch; live: boolean }) {
  const results = useJobResults(job.id, live).data;
  const decisions = useJobDecisions(job.id, live).data;
  const { setFilters } = useTableSearch(search, COMPARISON_FIELDS);
  if (!results || !decisions) return <Skeleton h={160} />;
  const colors = decisionColors(decisions.outcomes);
  const byOutcome = new Map<string, DecisionResult>(results.decisions.map((d) => [d.outcome, d]));
  // In rule order (the decisions' order), the outcomes no book got left out.
  const rows = decisions.outcomes.flatMap((o) => byOutcome.get(o.outcome) ?? []);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="results-title">
      <Stack gap="sm">
        <Title order={3} id="results-title">
          Results
        </Title>
        {!decisions.judged_at && (
          <Text size="sm" c="dimmed">
            Not judged yet: choose a rule set under Decisions to decide every book.
          </Text>
        )}
        <Table.ScrollContainer minWidth={300} type="native">
          <Table verticalSpacing={4} horizontalSpacing="xs" fz="sm" aria-label="Results by decision" maw={560}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Decision</Table.Th>
                <Table.Th ta="right">Books, share</Table.Th>
                <Table.Th ta="right">Cost</Table.Th>
                <Table.Th ta="right">Est. profit</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.outcome} data-outcome={d.outcome}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <UnstyledButton
                      onClick={() => {
                        setFilters([decisionFilter(d.outcome)]);
                        showComparison();
                      }}
                      title="Show only these books"
                      // Never narrower than its badge: a squeezed column would cut "No rule" short.
                      style={{ minWidth: 'max-content' }}
                    >
                      <DecisionBadge outcome={d.outcome} colors={colors} />
                    </UnstyledButton>
                  </Table.Td>
                  <Figures row={d} total={results.books} />
                </Table.Tr>
              ))}
              <Table.Tr data-outcome="" fw={600}>
                <Table.Td>All books</Table.Td>
                <Figures row={results.all} total={results.books} />
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="dimmed">
          {job.cost_per_book === null ? 'Cost needs a cost per book (below). ' : `Cost at ${usd(job.cost_per_book)} per book. `}
          Estimated profit adds up the books that have a best price.
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={600} id="sources-title">
            Best sources
          </Text>
          <Group gap="xs" component="ul" aria-labelledby="sources-title" m={0} p={0} style={{ listStyle: 'none' }}>
            {results.best_sources.map((s) => (
              <Text component="li" size="sm" key={s.source ?? ''} data-source={s.source ?? ''} data-testid="best-source">
                {s.source === null ? (
                  <>No US dollar price: {booksText(s.books)}</>
                ) : (
                  <>
                    <Text span fw={600} size="sm">
                      {s.source}
                    </Text>{' '}
                    for {booksText(s.books)} ({shareText(s.books, results.books)})
                  </>
                )}
              </Text>
            ))}
          </Group>
        </Stack>
      </Stack>
    </Card>
  );
}
