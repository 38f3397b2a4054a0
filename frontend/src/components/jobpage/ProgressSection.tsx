// The job's run per marketplace. While lookups run, one card per marketplace; once every one is
// done the cards fold into one line (the results come first), and unfold by themselves when a
// re-price (or a retry) starts the job again.
import { MARKETPLACES } from '@app/domain/marketplaces';
import { Button, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { JobSummary } from '../../client/types.gen';
import { allDoneText } from './job-results';
import { SourceRunCard } from './SourceRunCard';

export function ProgressSection({ summary, live }: { summary: JobSummary | undefined; live: boolean }) {
  const [open, setOpen] = useState(live);
  // Folds when the last lookup ends, unfolds when lookups start again.
  useEffect(() => setOpen(live), [live]);
  const labels = summary?.sources.map((s) => MARKETPLACES[s.marketplace].label) ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="run-title">
      <Group gap="sm" wrap="wrap">
        <Title order={3} id="run-title">
          Progress
        </Title>
        {!live && summary && (
          <Group gap={4} wrap="nowrap">
            <Text size="sm" c="dimmed" data-testid="progress-folded">
              {allDoneText(labels)} —
            </Text>
            <Button
              variant="subtle"
              size="compact-sm"
              aria-expanded={open}
              aria-controls={open ? 'run-cards' : undefined}
              rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
              onClick={() => setOpen((o) => !o)}
            >
              {open ? 'hide progress' : 'show progress'}
            </Button>
          </Group>
        )}
      </Group>
      {!summary ? (
        <Skeleton h={200} />
      ) : (
        open && (
          <SimpleGrid id="run-cards" cols={{ base: 1, sm: 2, lg: 4 }}>
            {summary.sources.map((run) => (
              <SourceRunCard key={run.marketplace} run={run} />
            ))}
          </SimpleGrid>
        )
      )}
    </Stack>
  );
}
