// lookup_status as a coloured badge (spec §4; colours from the domain's statusBadge).
import { statusBadge } from '@app/domain/status';
import { Badge } from '@mantine/core';

export function StatusBadge({ status }: { status: unknown }) {
  const { label, color } = statusBadge(typeof status === 'string' ? status : null);
  return (
    <Badge color={color} variant="light" size="sm" tt="none">
      {label}
    </Badge>
  );
}
