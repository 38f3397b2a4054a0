// lookup_status as a coloured badge (docs/requirements.md, Marketplace pages; colours from the domain's
// statusBadge). The badge reads "no offers available" and never truncates (Mantine's badge label does by
// default); the raw value, which is what filters take, is on hover.
import { statusBadge } from '@app/domain/status';
import { Badge } from '@mantine/core';

export function StatusBadge({ status }: { status: unknown }) {
  const { label, color } = statusBadge(typeof status === 'string' ? status : null);
  return (
    <Badge
      // The spec's colour on the dot, the label in text colour: Mantine's light and filled badges
      // in green or grey fail WCAG AA text contrast.
      color={color}
      variant="dot"
      size="sm"
      tt="none"
      title={label}
      data-status={label}
      styles={{
        root: { maxWidth: 'none', overflow: 'visible', flexShrink: 0 },
        label: { overflow: 'visible', textOverflow: 'clip', whiteSpace: 'nowrap' },
      }}
    >
      {label.replaceAll('_', ' ')}
    </Badge>
  );
}
