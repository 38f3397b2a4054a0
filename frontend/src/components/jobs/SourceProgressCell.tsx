// One source of one job in the jobs table (docs/requirements.md, Jobs): progress bar and percent in the
// progress colour, an 'N left' badge and a 'View' link to that source's lookups of the job;
// N/A when the job does not use the source.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { Anchor, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { SourceProgress } from '../../client/types.gen';
import { encodeFilters, jobIdFilter } from '../../lib/filters';
import { sourceCell, type SourceCell } from '../../lib/progress';
import { OrNA } from '../common/EmptyValue';

// Mantine's default yellow (shade 6) is amber beside orange; a lighter shade reads as yellow at a
// glance. The percent beside the bar stays in body text colour: coloured small text fails contrast.
export const BAR_SHADE: Record<SourceCell['color'], string> = {
  green: 'green.6',
  blue: 'blue.6',
  yellow: 'yellow.4',
  orange: 'orange.7',
  red: 'red.7',
};

export function SourceProgressCell({
  jobId,
  marketplace,
  progress,
}: {
  jobId: number;
  marketplace: MarketplaceInfo;
  progress: SourceProgress;
}) {
  const cell = sourceCell(progress);
  if (!cell) return <OrNA value={null} />;
  return (
    <Stack gap={4} miw={120} data-source={marketplace.id}>
      <Group gap="xs" wrap="nowrap">
        <Progress
          value={cell.percent}
          color={BAR_SHADE[cell.color]}
          size="md"
          style={{ flex: 1 }}
          aria-label={`${marketplace.label} progress`}
        />
        <Text size="xs" fw={600} data-testid="progress-percent" data-color={cell.color}>
          {cell.percent}%
        </Text>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <Badge size="sm" variant="dot" tt="none" color={cell.left === 0 ? 'green' : 'gray'}>
          {cell.label}
        </Badge>
        <Anchor
          size="sm"
          aria-label={`View ${marketplace.label} lookups of job ${jobId}`}
          renderRoot={(props) => (
            <Link {...props} to={`/${marketplace.slug}`} search={{ page: 1, filters: encodeFilters([jobIdFilter(jobId)]) }} />
          )}
        >
          View
        </Anchor>
      </Group>
    </Stack>
  );
}
