// Add or edit a watch of a book or a job: an optional name, conditions built with the rule builder's
// condition rows, and whether it is emailed (the hourly digest) as well as shown in the app. The
// domain's checks run as it is typed (shown once an input is left, or on Save); a 422 shows beside
// the input its loc names, anything else as a toast.
import { WATCH_FIELDS } from '@app/domain/watches';
import { Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { WatchPublic } from '../../client/types.gen';
import { useDraftErrors } from '../../hooks/useDraftErrors';
import { WATCH_TEXT } from '../../lib/messages';
import { showApiError, showSuccess } from '../../lib/notify';
import { emptyWatchDraft, watchBody, watchDraftErrors, watchToDraft, type WatchDraft } from '../../lib/watches';
import { FormModal } from '../common/FormModal';
import { ConditionRows } from '../rules/ConditionRows';
import { saveWatch, watchesKey, type WatchTarget } from './queries';

export function WatchForm({
  target,
  watch,
  opened,
  onClose,
}: {
  target: WatchTarget;
  /** The watch to edit; a new one when missing. */
  watch?: WatchPublic;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useDraftErrors<WatchDraft>(emptyWatchDraft, watchDraftErrors);
  const { draft, change, error, reset } = form;

  // Each opening starts from the watch as saved (or an empty one). Only an opening: the watch read
  // again while the form is open (it fired meanwhile, and the live stream refreshed it) must not
  // throw away what is being typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `watch` is read at opening only, on purpose (above)
  useEffect(() => {
    if (opened) reset(watch ? watchToDraft(watch) : emptyWatchDraft());
  }, [opened, reset]);

  const save = useMutation({
    mutationFn: (d: WatchDraft) => saveWatch(target, watch?.id, watchBody(d)),
    meta: { toastOnError: false },
    onSuccess: () => {
      showSuccess(watch ? WATCH_TEXT.updated : WATCH_TEXT.created);
      onClose();
    },
    onError: (err) => {
      if (!form.failed(err)) showApiError(err);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchesKey(target) }),
  });
  // A 422 about something the form has no input for (the book or the job itself) is read out below.
  const elsewhere = Object.entries(form.server).find(([path]) => path !== 'name' && !path.startsWith('conditions'))?.[1];

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={watch ? 'Edit Watch' : 'Add Watch'}
      size="xl"
      loading={save.isPending}
      onSubmit={(e) => {
        e.preventDefault();
        if (form.submit()) save.mutate(draft);
      }}
    >
      <Stack gap="sm" onBlur={form.onBlur}>
        <TextInput
          label="Name"
          name="name"
          description="Optional: the alert starts with it (else with “Your watch”)"
          data-autofocus
          value={draft.name}
          error={error('name')}
          onChange={(e) => change({ ...draft, name: e.currentTarget.value })}
        />
        <Text size="sm" fw="var(--mantine-font-weight-medium)">
          Tell me when all of these hold
        </Text>
        <ConditionRows
          conditions={draft.conditions}
          fields={WATCH_FIELDS}
          onChange={(conditions) => change({ ...draft, conditions })}
          label="Watch"
          path=""
          error={error}
        />
        <Text size="xs" c="dimmed">
          {WATCH_TEXT.hint}
        </Text>
        <Switch label={WATCH_TEXT.email} checked={draft.email} onChange={(e) => change({ ...draft, email: e.currentTarget.checked })} />
        {elsewhere && (
          <Text size="sm" c="red" role="alert">
            {elsewhere}
          </Text>
        )}
      </Stack>
    </FormModal>
  );
}
