// The actions menu of one job (jobs tables, job page): retry failed, re-price, cancel, delete.
// Each asks first, says how it went in a toast and refreshes the jobs and lookups shown.
import { MARKETPLACE_LIST, type MarketplaceSlug } from '@app/domain/marketplaces';
import { ActionIcon, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDotsVertical, IconPlayerStop, IconRefresh, IconRotateClockwise, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { countRetryableLookupsOptions } from '../../client/@tanstack/react-query.gen';
import { cancelJob, deleteJob, repriceJob, retryFailedLookups } from '../../client/sdk.gen';
import type { JobPublic } from '../../client/types.gen';
import { TOAST } from '../../lib/messages';
import { showError, showSuccess } from '../../lib/notify';
import { hasUnfinishedLookups } from '../../lib/progress';
import { invalidateAll, jobActionKeys } from '../../lib/query-keys';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { MarketplaceChoiceDialog } from './MarketplaceChoiceDialog';

/** `onDeleted` runs after a successful delete (the job page leaves for the jobs list). */
export function JobActions({ job, onDeleted }: { job: JobPublic; onDeleted?: () => void }) {
  const [retryOpened, retry] = useDisclosure(false);
  const [repriceOpened, reprice] = useDisclosure(false);
  const [cancelOpened, cancel] = useDisclosure(false);
  const [deleteOpened, del] = useDisclosure(false);
  const queryClient = useQueryClient();
  const path = { id: job.id };
  const refresh = () => invalidateAll(queryClient, jobActionKeys());

  // What a retry would queue again, read when the retry dialog opens (the jobs list does not count failures).
  const retryable = useQuery({
    ...countRetryableLookupsOptions({ path }),
    enabled: retryOpened,
  });
  /** The retryable counts of the marketplaces a choice covers (all the job's, or one). */
  const chosenCounts = (slug: MarketplaceSlug | undefined) => {
    const counts = retryable.data;
    if (!counts) return undefined;
    const chosen = MARKETPLACE_LIST.filter((m) => job[m.id].enabled && (slug === undefined || m.slug === slug));
    const sum = (key: 'failed' | 'cancelled') => chosen.reduce((n, m) => n + counts[m.id][key], 0);
    return { failed: sum('failed'), cancelled: sum('cancelled') };
  };
  const retryCount = (slug: MarketplaceSlug | undefined) => {
    const c = chosenCounts(slug);
    return c && c.failed + c.cancelled;
  };
  const describeRetry = (slug: MarketplaceSlug | undefined) => {
    const c = chosenCounts(slug);
    if (!c) return undefined;
    return c.cancelled ? `${c.failed} failed, ${c.cancelled} cancelled` : `${c.failed} failed`;
  };

  /** A toast saying what the action did, and its dialog closes. */
  const done = (message: string, close: () => void) => {
    showSuccess(message);
    close();
  };
  const retryMutation = useMutation({
    mutationFn: async (market?: MarketplaceSlug) => (await retryFailedLookups({ path, query: { market } })).data,
    onSuccess: (r) => done(TOAST.jobRetried(r.lookups_affected), retry.close),
    onSettled: refresh,
  });
  const repriceMutation = useMutation({
    mutationFn: async (market?: MarketplaceSlug) => (await repriceJob({ path, query: { market } })).data,
    onSuccess: (r) => done(TOAST.jobRepriced(r.lookups_affected), reprice.close),
    onSettled: refresh,
  });
  const cancelMutation = useMutation({
    mutationFn: async () => (await cancelJob({ path })).data,
    onSuccess: (r) => done(TOAST.jobCancelled(r.lookups_affected), cancel.close),
    onSettled: refresh,
  });
  const deleteMutation = useMutation({
    mutationFn: async () => (await deleteJob({ path })).data,
    meta: { toastOnError: false },
    onSuccess: () => {
      done(TOAST.deleted('job'), del.close);
      onDeleted?.();
    },
    onError: () => showError(TOAST.deleteFailure('job'), TOAST.deleteFailureTitle),
    onSettled: refresh,
  });

  // A cancelled job or one with nothing left to look up has nothing to cancel.
  const cancellable = !job.cancelled_at && hasUnfinishedLookups([job]);

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for job ${job.id}`}>
            <IconDotsVertical size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconRotateClockwise size={14} />} onClick={retry.open}>
            Retry failed
          </Menu.Item>
          <Menu.Item leftSection={<IconRefresh size={14} />} onClick={reprice.open}>
            Re-price
          </Menu.Item>
          <Menu.Item leftSection={<IconPlayerStop size={14} />} onClick={cancel.open} disabled={!cancellable}>
            Cancel job
          </Menu.Item>
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={del.open}>
            Delete job
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <MarketplaceChoiceDialog
        job={job}
        opened={retryOpened}
        onClose={retry.close}
        title="Retry failed lookups"
        message={`The failed lookups of "${job.name}" (and any a cancel stopped) are queued again with fresh attempts.`}
        confirmLabel="Retry"
        count={retryCount}
        detail={describeRetry}
        loading={retryMutation.isPending}
        onConfirm={(market) => retryMutation.mutate(market)}
      />
      <MarketplaceChoiceDialog
        job={job}
        opened={repriceOpened}
        onClose={reprice.close}
        title="Re-price job"
        message={`Every ISBN of "${job.name}" is looked up again. The current prices stay visible until the new ones arrive.`}
        confirmLabel="Re-price"
        loading={repriceMutation.isPending}
        onConfirm={(market) => repriceMutation.mutate(market)}
      />
      <ConfirmDialog
        opened={cancelOpened}
        onClose={cancel.close}
        title="Cancel job"
        message={`Queued lookups of "${job.name}" will not be looked up; lookups already in progress finish. Retry failed or Re-price runs them again later.`}
        confirmLabel="Cancel job"
        onConfirm={() => cancelMutation.mutate()}
        loading={cancelMutation.isPending}
      />
      <ConfirmDialog
        opened={deleteOpened}
        onClose={del.close}
        title="Delete Job"
        message={`Job "${job.name}" (ID ${job.id}) and all its lookups will be permanently deleted. Are you sure? You will not be able to undo this action.`}
        onConfirm={() => deleteMutation.mutate()}
        loading={deleteMutation.isPending}
      />
    </>
  );
}
