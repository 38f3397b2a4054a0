// Scheduled re-pricing on the job page: "Re-price every N days", its next run, and pause, resume
// and remove (docs/features/jobs.md, "Scheduled re-pricing"). The worker runs it; a 422 shows beside
// the input, anything else in a toast like the other job controls.
import { SCHEDULE_MAX_EVERY_DAYS, SCHEDULE_MIN_EVERY_DAYS } from '@app/domain/schedule';
import { Button, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { readJobQueryKey } from '../../client/@tanstack/react-query.gen';
import { removeJobSchedule, setJobSchedule } from '../../client/sdk.gen';
import type { JobPublic, JobSchedule as Schedule } from '../../client/types.gen';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { fieldErrors } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { TOAST } from '../../lib/messages';
import { invalidateAll, jobPageKeys } from '../../lib/query-keys';
import { showApiError, showSuccess } from '../../lib/notify';

const everyText = (days: number) => (days === 1 ? 'every day' : `every ${days} days`);

/** The schedule as a sentence: "Re-priced every 7 days. Next run: 12/4/2026, 3:00:00 AM." or paused, or none. */
export function scheduleText(schedule: Pick<Schedule, 'every_days' | 'paused' | 'next_run_at'> | null): string {
  if (!schedule) return 'Not scheduled: the job is re-priced only when you ask.';
  if (schedule.paused) return `Paused (${everyText(schedule.every_days)}). It does not run until resumed.`;
  return `Re-priced ${everyText(schedule.every_days)}. Next run: ${formatDateTime(schedule.next_run_at)}.`;
}

/** Who set it, from the viewer's side (the job page is seen by its owner and by superusers). */
export function setByText(schedule: Pick<Schedule, 'set_by'>, job: Pick<JobPublic, 'owner_id'>, me: string | undefined): string | null {
  if (schedule.set_by === null) return null;
  if (schedule.set_by === me) return 'Set by you.';
  return schedule.set_by === job.owner_id ? 'Set by the job’s owner.' : 'Set by an administrator.';
}

/** The typed interval as a whole number of days in bounds, or why it is not one. */
export function parseEveryDays(value: string | number): number | string {
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (value === '' || !Number.isInteger(n) || n < SCHEDULE_MIN_EVERY_DAYS || n > SCHEDULE_MAX_EVERY_DAYS)
    return `Enter a whole number of days from ${SCHEDULE_MIN_EVERY_DAYS} to ${SCHEDULE_MAX_EVERY_DAYS}`;
  return n;
}

type Change = { every_days: number; paused?: boolean } | 'remove';

export function JobSchedule({ job }: { job: JobPublic }) {
  const queryClient = useQueryClient();
  const me = useCurrentUser().data?.id;
  const schedule = job.schedule;
  const [days, setDays] = useState<string | number>(schedule?.every_days ?? 7);
  const [error, setError] = useState<string | undefined>();

  const mutation = useMutation({
    mutationFn: async (change: Change) =>
      change === 'remove'
        ? (await removeJobSchedule({ path: { id: job.id } })).data
        : (await setJobSchedule({ path: { id: job.id }, body: change })).data,
    meta: { toastOnError: false },
    onSuccess: (saved, change) => {
      queryClient.setQueryData(readJobQueryKey({ path: { id: job.id } }), saved);
      setError(undefined);
      if (change === 'remove') return showSuccess(TOAST.scheduleRemoved);
      if (schedule && change.paused === true && !schedule.paused) return showSuccess(TOAST.schedulePaused);
      if (schedule?.paused && change.paused === false) return showSuccess(TOAST.scheduleResumed);
      showSuccess(TOAST.scheduleSet(change.every_days));
    },
    onError: (err) => {
      const msg = fieldErrors(err).every_days;
      if (msg) setError(msg);
      else showApiError(err);
    },
    onSettled: () => invalidateAll(queryClient, jobPageKeys(job.id)),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = parseEveryDays(days);
    if (typeof n !== 'number') return setError(n);
    mutation.mutate({ every_days: n });
  };
  const setBy = schedule && setByText(schedule, job, me);

  return (
    <Stack gap="sm" component="section" aria-labelledby="schedule-title" maw={480}>
      <Title order={3} id="schedule-title">
        Scheduled re-pricing
      </Title>
      <Text size="sm" data-testid="job-schedule">
        {scheduleText(schedule)}
        {setBy ? ` ${setBy}` : ''}
      </Text>
      <form noValidate onSubmit={submit}>
        <Stack gap="xs">
          <NumberInput
            label="Re-price every N days"
            description="The worker re-prices the job on its own, behind newer work and within every marketplace's limits."
            min={SCHEDULE_MIN_EVERY_DAYS}
            max={SCHEDULE_MAX_EVERY_DAYS}
            allowDecimal={false}
            allowNegative={false}
            // Out of bounds is said beside the input, not silently changed to the nearest bound.
            clampBehavior="none"
            suffix=" days"
            value={days}
            error={error}
            onChange={(v) => {
              setDays(v);
              setError(undefined);
            }}
          />
          <Group gap="xs">
            <Button
              type="submit"
              loading={mutation.isPending && mutation.variables !== 'remove' && mutation.variables?.paused === undefined}
            >
              {schedule ? 'Save schedule' : 'Set schedule'}
            </Button>
            {schedule && (
              <Button
                variant="default"
                disabled={mutation.isPending}
                onClick={() => mutation.mutate({ every_days: schedule.every_days, paused: !schedule.paused })}
              >
                {schedule.paused ? 'Resume' : 'Pause'}
              </Button>
            )}
            {schedule && (
              <Button variant="subtle" color="red" disabled={mutation.isPending} onClick={() => mutation.mutate('remove')}>
                Remove schedule
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
