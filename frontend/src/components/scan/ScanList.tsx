// What was read, newest first: the ISBN-13, or what was read and why it is not a book's ISBN.
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ScanEntry } from './useScanReads';

const SOURCE_LABEL = { camera: 'Camera', scanner: 'Scanner', typed: 'Typed' } as const;

export function ScanList({ entries }: { entries: ScanEntry[] }) {
  return (
    <section aria-labelledby="scan-list-title">
      <Title order={3} size="h4" id="scan-list-title" mb="xs">
        Codes read
      </Title>
      {/* polite: a screen reader says each new read without cutting off the last one. */}
      <Stack gap="xs" aria-live="polite" data-testid="scan-list">
        {entries.length === 0 && <Text c="dimmed">Nothing read yet.</Text>}
        {entries.map((e) => (
          <Paper key={e.id} withBorder p="sm" data-testid="scan-entry">
            {'isbn' in e.read ? (
              <Text ff="monospace" fz="lg" fw={600}>
                {e.read.isbn}
              </Text>
            ) : (
              <>
                <Text ff="monospace" fz="lg" style={{ overflowWrap: 'anywhere' }}>
                  {e.raw}
                </Text>
                <Text c="red.8" size="sm">
                  {e.read.reason}
                </Text>
              </>
            )}
            <Text size="xs" c="dimmed">
              {SOURCE_LABEL[e.source]}
            </Text>
          </Paper>
        ))}
      </Stack>
    </section>
  );
}
