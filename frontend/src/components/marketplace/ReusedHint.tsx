// Beside the status of a lookup filled from a recent answer: "reused · 3 h ago", the answer's time on hover.
import { Text } from '@mantine/core';
import { reuseHint, type ReuseInfo } from './reuse';

export function ReusedHint({ row }: { row: ReuseInfo }) {
  const hint = reuseHint(row);
  if (!hint) return null;
  return (
    <Text size="xs" c="dimmed" title={hint.title} data-testid="reused-hint" span ml={6} style={{ whiteSpace: 'nowrap' }}>
      {hint.text}
    </Text>
  );
}
