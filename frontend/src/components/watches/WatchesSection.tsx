// The watches of a book (its page) or of a job (its page: the watch looks at every book of the job):
// each in words (its conditions, armed or fired, when it last fired, emailed or not) with Edit and
// Delete, and "Watch this book/job" to add one.
import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { WatchPublic } from '../../client/types.gen';
import { watchConditionsText, watchStateText } from '../../lib/watches';
import { RecordActions } from '../common/RecordActions';
import { removeWatch, watchesKey, watchesQuery, type WatchTarget } from './queries';
import { WatchForm } from './WatchForm';

export function WatchesSection({ target }: { target: WatchTarget }) {
  const what = 'isbn' in target ? 'book' : 'job';
  const watches = useQuery(watchesQuery(target));
  const [adding, add] = useDisclosure(false);
  return (
    <Stack gap="sm" component="section" aria-labelledby="watches-title">
      <Group justify="space-between" gap="sm">
        <Title order={3} id="watches-title">
          Watches
        </Title>
        <Button variant="default" leftSection={<IconBell size={16} />} onClick={add.open}>
          Watch this {what}
        </Button>
      </Group>
      {what === 'job' && (
        <Text size="sm" c="dimmed">
          A watch of the job looks at every book of it, each on its own.
        </Text>
      )}
      {!watches.data ? (
        <Skeleton h={60} />
      ) : watches.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          You are not watching this {what}. Watch it to hear when a new answer meets your conditions.
        </Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={`Your watches of this ${what}`}>
          {watches.data.data.map((w) => (
            <li key={w.id}>
              <WatchCard watch={w} target={target} />
            </li>
          ))}
        </Stack>
      )}
      <WatchForm target={target} opened={adding} onClose={add.close} />
    </Stack>
  );
}

function WatchCard({ watch, target }: { watch: WatchPublic; target: WatchTarget }) {
  return (
    <Paper withBorder p="sm" data-testid="watch" aria-label={watch.name ?? 'Watch'} component="article">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            {watch.name && <Text fw={600}>{watch.name}</Text>}
            <Badge color={watch.armed ? 'green' : 'orange'} variant="light">
              {watch.armed ? 'Armed' : 'Fired'}
            </Badge>
            {watch.email && (
              <Badge color="gray" variant="light">
                Emailed
              </Badge>
            )}
          </Group>
          <Text size="sm" data-testid="watch-conditions" style={{ overflowWrap: 'anywhere' }}>
            When {watchConditionsText(watch)}
          </Text>
          <Text size="xs" c="dimmed" data-testid="watch-state">
            {watchStateText(watch)}
          </Text>
        </Stack>
        <RecordActions
          what="watch"
          editDialog={(opened, onClose) => <WatchForm target={target} watch={watch} opened={opened} onClose={onClose} />}
          deleteRecord={() => removeWatch(watch.id)}
          confirmMessage="The watch will stop. The notifications it already sent stay. Are you sure?"
          refetch={[watchesKey(target)]}
        />
      </Group>
    </Paper>
  );
}
