// The rule sets list: add, edit, delete a set and choose the team default.
import { PAGE_SIZE } from '@app/domain/jobs';
import { isOtherwise, OTHERWISE } from '@app/domain/rules';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { readRuleSetsOptions } from '../../client/@tanstack/react-query.gen';
import type { RuleSetPublic, UserPublic } from '../../client/types.gen';
import type { DataColumn } from '../common/DataTable';
import { PageTitle } from '../common/PageTitle';
import { PagedTable } from '../common/PagedTable';
import { RuleSetActions } from './RuleSetActions';
import { RuleSetView } from './RuleSetView';
import { FIRST_MATCH_HINT, RuleSetEditor } from './RuleSetEditor';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { usePageParam } from '../../hooks/usePageParam';
import { usePagedQuery } from '../../hooks/usePagedQuery';

function columns(me: UserPublic | undefined): DataColumn<RuleSetPublic>[] {
  const su = !!me?.is_superuser;
  return [
    {
      key: 'name',
      header: 'Name',
      render: (s) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm">{s.name}</Text>
          {s.is_team_default && (
            <Badge size="sm" variant="light" color="indigo">
              Team default
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'rules',
      header: 'Rules',
      render: (s) => (
        <Group gap={4}>
          {s.rules.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: outcomes may repeat; the order is the rule's place
            <Badge key={i} size="sm" variant="dot" color={r.color}>
              {isOtherwise(r) ? `${OTHERWISE}: ${r.outcome}` : r.outcome}
            </Badge>
          ))}
        </Group>
      ),
    },
    { key: 'version', header: 'Version', render: (s) => s.version },
    ...(su ? [{ key: 'owner', header: 'Owner', render: (s: RuleSetPublic) => s.owner_email }] : []),
    {
      key: 'actions',
      header: 'Actions',
      // Someone else's set (the team default, for its members) is theirs to read and copy, not change.
      render: (s) => (su || s.owner_id === me?.id ? <RuleSetActions ruleSet={s} isSuperuser={su} /> : <RuleSetView ruleSet={s} />),
      width: 80,
    },
  ];
}

const EMPTY = (
  <Stack align="center" gap={4} py="lg">
    <Text fw={600}>You don't have any rule sets yet</Text>
    <Text c="dimmed" size="sm">
      Add one to say which books to buy, list or reject
    </Text>
  </Stack>
);

export function RulesPage({ page: current }: { page: number }) {
  const [page, setPage] = usePageParam(current);
  const { data: me } = useCurrentUser();
  const [adding, add] = useDisclosure(false);
  const ruleSets = usePagedQuery({
    pageQuery: ({ skip, limit }) => readRuleSetsOptions({ query: { skip, limit } }),
    page,
    pageSize: PAGE_SIZE.generic,
  });

  return (
    <Stack gap="md">
      <PageTitle>Buy rules</PageTitle>
      <Text size="sm" c="dimmed">
        A rule set decides each book of a job. {FIRST_MATCH_HINT} Editing a set saves a new version; jobs keep the version they were judged
        with.
      </Text>
      <Group>
        <Button leftSection={<IconPlus size={16} />} onClick={add.open}>
          Add Rule Set
        </Button>
      </Group>
      <RuleSetEditor opened={adding} onClose={add.close} />
      <PagedTable
        aria-label="Rule sets"
        columns={columns(me)}
        rowKey={(s) => s.id}
        empty={EMPTY}
        paged={ruleSets}
        page={page}
        onChangePage={setPage}
      />
    </Stack>
  );
}
