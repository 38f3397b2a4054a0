// Beside a Queued badge: when a lookup that failed before will be tried again, why on hover.
import { Text } from '@mantine/core';
import { retryHint, type RetryInfo } from './retry';

export function RetryHint({ row }: { row: RetryInfo }) {
  const hint = retryHint(row);
  if (!hint) return null;
  return (
    <Text size="xs" c="dimmed" title={hint.reason} data-testid="retry-hint" span ml={6}>
      {hint.text}
    </Text>
  );
}
