// The Fees page: what each selling marketplace charges when a book sells, which the comparison's
// Estimated Profit uses. Everyone signed in reads it; superusers edit a schedule or put it back to
// its default. Each default names its source, the date the source gives and how sure we are.
import type { FeeCertainty } from '@app/domain/fees';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { resetFeeSchedule } from '../../client/sdk.gen';
import type { FeeSchedule } from '../../client/types.gen';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { formatDateTime, formatMoney } from '../../lib/format';
import { externalHref } from '../../lib/links';
import { showSuccess } from '../../lib/notify';
import { invalidateAll, jobPageKeys } from '../../lib/query-keys';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { DataTable, type DataColumn } from '../common/DataTable';
import { PageTitle } from '../common/PageTitle';
import { EditFeeSchedule } from './EditFeeSchedule';
import { feeSchedulesKey, feePath, useFeeSchedules } from './useFeeSchedules';

const CERTAINTY_COLOR: Record<FeeCertainty, string> = { CONFIRMED: 'green', HISTORICAL: 'yellow', UNCERTAIN: 'red' };
const usd = (v: number) => formatMoney(v, 'USD');

/** "min $0.50, max $40.00", or "none". */
function bounds(s: FeeSchedule): string {
  const parts = [s.min_commission !== null && `min ${usd(s.min_commission)}`, s.max_commission !== null && `max ${usd(s.max_commission)}`];
  return parts.filter(Boolean).join(', ') || 'none';
}

function CertaintyBadge({ certainty }: { certainty: FeeCertainty }) {
  return (
    <Badge size="sm" variant="dot" color={CERTAINTY_COLOR[certainty]}>
      {certainty.toLowerCase()}
    </Badge>
  );
}

/** Where the figures come from: the default's source, or who set them (with the default beside). */
function Origin({ s }: { s: FeeSchedule }) {
  const d = s.default;
  const source = (
    <Text size="sm" component="span">
      <Anchor href={externalHref(d.source_url)} target="_blank" rel="noopener noreferrer" size="sm">
        {d.source}
      </Anchor>
      , as of {d.as_of} <CertaintyBadge certainty={d.certainty} />
    </Text>
  );
  if (s.is_default)
    return (
      <Stack gap={2} maw={420}>
        <Text size="sm">Default: {source}</Text>
        <Text size="xs" c="dimmed">
          {d.note}
        </Text>
      </Stack>
    );
  const who = s.updated_by ? s.updated_by.full_name || s.updated_by.email : 'a removed user';
  return (
    <Stack gap={2} maw={420}>
      <Text size="sm">
        Set by {who}
        {s.updated_at && ` on ${formatDateTime(s.updated_at)}`}
      </Text>
      <Text size="xs" c="dimmed">
        Default {d.percent} % from {source}
      </Text>
    </Stack>
  );
}

function ResetButton({ s }: { s: FeeSchedule }) {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const label = MARKETPLACES[s.marketplace].label;
  const mutation = useMutation({
    mutationFn: async () => (await resetFeeSchedule({ path: feePath(s) })).data,
    onSuccess: (data) => {
      queryClient.setQueryData(feeSchedulesKey(), data);
      showSuccess(`${label} fees are back to the default.`);
      setOpened(false);
    },
    onSettled: () => invalidateAll(queryClient, jobPageKeys()),
  });
  return (
    <>
      <Button size="xs" variant="default" disabled={s.is_default} onClick={() => setOpened(true)}>
        Reset
      </Button>
      <ConfirmDialog
        opened={opened}
        onClose={() => setOpened(false)}
        onConfirm={() => mutation.mutate()}
        loading={mutation.isPending}
        title={`Reset ${label} fees`}
        message={`${label} goes back to its default fees (${s.default.percent} %). Estimated profits change at once.`}
        confirmLabel="Reset"
      />
    </>
  );
}

function EditButton({ s }: { s: FeeSchedule }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size="xs" variant="light" onClick={() => setOpened(true)}>
        Edit
      </Button>
      <EditFeeSchedule schedule={s} opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}

function columns(canEdit: boolean): DataColumn<FeeSchedule>[] {
  const cols: DataColumn<FeeSchedule>[] = [
    { key: 'marketplace', header: 'Marketplace', render: (s) => MARKETPLACES[s.marketplace].label },
    { key: 'percent', header: 'Commission', align: 'right', render: (s) => `${s.percent} %` },
    { key: 'bounds', header: 'Commission per item', render: bounds },
    { key: 'fixed', header: 'Fixed fee', align: 'right', render: (s) => usd(s.fixed) },
    { key: 'shipping_credit', header: 'Shipping credit', align: 'right', render: (s) => usd(s.shipping_credit) },
    { key: 'origin', header: 'Source', render: (s) => <Origin s={s} /> },
  ];
  if (canEdit)
    cols.push({
      key: 'actions',
      header: 'Actions',
      render: (s) => (
        <Group gap="xs" wrap="nowrap">
          <EditButton s={s} />
          <ResetButton s={s} />
        </Group>
      ),
    });
  return cols;
}

export function FeesPage() {
  const { data: me } = useCurrentUser();
  const schedules = useFeeSchedules();
  return (
    <Stack gap="md">
      <PageTitle>Marketplace Fees</PageTitle>
      <Text size="sm" maw={760}>
        What selling one book costs on each marketplace. A job’s Estimated Profit is the best price, less the best marketplace’s commission
        (a percentage of that price, which includes shipping where the marketplace gives it, kept within its per-item minimum and maximum)
        and fixed fee, plus its shipping credit, less the job’s cost per book. Card-processing fees and monthly subscriptions are left out.
      </Text>
      <DataTable
        aria-label="Fee schedules"
        columns={columns(me?.is_superuser ?? false)}
        rows={schedules.data}
        rowKey={(s) => s.marketplace}
        isPending={schedules.isPending}
        placeholderRows={3}
      />
    </Stack>
  );
}
