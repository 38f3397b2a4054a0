// The verdict of the latest scan: a full-width band in the outcome's colour with its name (readable
// in sunlight: dark shades with white text, light ones with black), whether it is final, and the
// figures behind it. Without a rule set it says how to get one and still shows the figures.
import { SCAN_MESSAGES } from '@app/domain/scan';
import { Alert, Box, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ScanPublic } from '../../client/types.gen';
import { duplicateNotes, verdictFigures, verdictState } from '../../lib/scan-view';

/** Outcome colours that need black text (white on them is below 4.5:1). */
const LIGHT = new Set(['yellow', 'orange', 'lime']);

export function bandColors(color: string): { bg: string; fg: string } {
  return LIGHT.has(color) ? { bg: `var(--mantine-color-${color}-4)`, fg: '#000' } : { bg: `var(--mantine-color-${color}-9)`, fg: '#fff' };
}

export function VerdictBand({ scan }: { scan: ScanPublic }) {
  const outcome = scan.verdict.outcome;
  const { bg, fg } = bandColors(outcome?.color ?? 'gray');
  const title = scan.verdict.figures?.title;
  return (
    <Stack gap="xs" data-testid="verdict">
      <Paper
        radius="md"
        p="md"
        style={{ background: bg, color: fg }}
        data-outcome={outcome?.name ?? ''}
        data-state={scan.verdict.state}
        role="status"
        aria-live="polite"
      >
        <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
          <Title order={2} fz={40} lh={1.1} c="inherit">
            {outcome?.name ?? 'No rule set'}
          </Title>
          <Text fw={700} c="inherit" data-testid="verdict-state">
            {verdictState(scan)}
          </Text>
        </Group>
        <Text c="inherit" fw={600} mt={4}>
          {scan.isbn}
          {title ? ` · ${title}` : ''}
        </Text>
      </Paper>
      {!outcome && <Alert color="blue">{SCAN_MESSAGES.noRuleSet}</Alert>}
      {duplicateNotes(scan).map((note) => (
        <Alert key={note} color="yellow" py="xs" data-testid="duplicate-note">
          {note}
        </Alert>
      ))}
      {scan.verdict.figures && (
        <SimpleGrid cols={2} spacing="xs">
          {verdictFigures(scan).map((f) => (
            <Box key={f.label}>
              <Text size="xs" c="dimmed">
                {f.label}
              </Text>
              <Text fw={700} size="lg">
                {f.value}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
