// The session's scans, newest first, with a count per outcome and the totals of what was marked
// bought; each scan can be marked bought or left, or removed (undo is removing the newest).
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { ScanPublic, ScanSessionDetail } from '../../client/types.gen';
import { formatMoney } from '../../lib/format';
import { bandColors } from './VerdictBand';

interface Props {
  detail: ScanSessionDetail;
  onMark: (scan: ScanPublic, mark: 'bought' | 'left' | null) => void;
  onRemove: (scan: ScanPublic) => void;
  busy: boolean;
}

const money = (v: number | null) => (v === null ? '—' : formatMoney(v, 'USD'));

export function ScanHistory({ detail, onMark, onRemove, busy }: Props) {
  const { scans, outcomes, bought } = detail;
  return (
    <Stack gap="sm">
      <Group gap="xs" data-testid="outcome-counts">
        {outcomes.map((o) => (
          <Badge key={o.name} size="lg" tt="none" style={{ background: bandColors(o.color).bg, color: bandColors(o.color).fg }}>
            {o.name}: {o.scans}
          </Badge>
        ))}
      </Group>
      <Text size="sm" data-testid="bought-totals">
        Bought: {bought.scans} {bought.scans === 1 ? 'book' : 'books'}
        {bought.cost !== null || bought.estimated_profit !== null
          ? ` · cost ${money(bought.cost)} · est. profit ${money(bought.estimated_profit)}`
          : ''}
      </Text>
      {scans.length > 0 && (
        <Button variant="default" size="md" disabled={busy} onClick={() => scans[0] && onRemove(scans[0])}>
          Undo last scan
        </Button>
      )}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Scans">
        {scans.map((s) => (
          <Card component="li" key={s.id} withBorder padding="sm" data-testid="scan-row" data-isbn={s.isbn}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text fw={600} size="sm">
                  {s.isbn}
                  {s.copies > 1 ? ` ×${s.copies}` : ''}
                </Text>
                {s.verdict.figures?.title && (
                  <Text size="xs" c="dimmed" truncate="end">
                    {s.verdict.figures.title}
                  </Text>
                )}
              </Stack>
              {s.verdict.outcome && (
                <Badge
                  tt="none"
                  style={{
                    background: bandColors(s.verdict.outcome.color).bg,
                    color: bandColors(s.verdict.outcome.color).fg,
                    flexShrink: 0,
                  }}
                >
                  {s.verdict.outcome.name}
                  {s.verdict.state === 'provisional' ? ' (provisional)' : ''}
                </Badge>
              )}
            </Group>
            <Group gap="xs" mt="xs">
              <Button
                size="sm"
                variant={s.mark === 'bought' ? 'filled' : 'default'}
                aria-pressed={s.mark === 'bought'}
                disabled={busy}
                onClick={() => onMark(s, s.mark === 'bought' ? null : 'bought')}
              >
                Bought
              </Button>
              <Button
                size="sm"
                variant={s.mark === 'left' ? 'filled' : 'default'}
                aria-pressed={s.mark === 'left'}
                disabled={busy}
                onClick={() => onMark(s, s.mark === 'left' ? null : 'left')}
              >
                Left
              </Button>
              <Button
                size="sm"
                variant="subtle"
                color="red"
                disabled={busy}
                onClick={() => onRemove(s)}
                aria-label={`Remove scan of ${s.isbn}`}
              >
                Remove
              </Button>
            </Group>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}
