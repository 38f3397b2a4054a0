// The verdict of the latest scan: a full-width band in the outcome's colour with its name (readable
// in sunlight: dark shades with white text, light ones with black), whether it is final, and the
// figures behind it. Without a rule set it says how to get one and still shows the figures.
import { SCAN_MESSAGES } from '@app/domain/scan';
import { Alert, Box, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ScanPublic } from '../../client/types.gen';
import { duplicateNotes, verdictFigures, verdictState } from './scan-view';

/**
 * Each outcome colour as a band readable in sunlight: a deep shade under white text, or a light one
 * under black, every pair at least 5.5:1 (Mantine's own shade 9 of green is only 4.4:1 under white).
 */
const BANDS: Record<string, { bg: string; fg: string }> = {
  green: { bg: '#1b5e20', fg: '#fff' },
  teal: { bg: '#00594f', fg: '#fff' },
  blue: { bg: '#1553a0', fg: '#fff' },
  indigo: { bg: '#283593', fg: '#fff' },
  violet: { bg: '#5e35b1', fg: '#fff' },
  grape: { bg: '#7b1fa2', fg: '#fff' },
  pink: { bg: '#ad1457', fg: '#fff' },
  red: { bg: '#b71c1c', fg: '#fff' },
  orange: { bg: '#ffa94d', fg: '#000' },
  yellow: { bg: '#ffd43b', fg: '#000' },
  gray: { bg: '#495057', fg: '#fff' },
};

export const bandColors = (color: string) => BANDS[color] ?? (BANDS.gray as { bg: string; fg: string });

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
