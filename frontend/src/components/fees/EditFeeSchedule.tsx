// A superuser's dialog for one marketplace's fees. Ranges are the server's to check (one source:
// FEE_LIMITS in the domain); its 422s show beside the inputs they name.
import { FEE_FIELDS, FEE_FIELD_LABELS, OPTIONAL_FEE_FIELDS } from '@app/domain/fees';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { updateFeeSchedule } from '../../client/sdk.gen';
import type { FeeSchedule } from '../../client/types.gen';
import { fieldErrors } from '../../lib/errors';
import { type FeeField, type FeeForm, toFeeBody, toFeeForm } from '../../lib/fees';
import { FORM_MODE } from '../../lib/form-mode';
import { showApiError, showSuccess } from '../../lib/notify';
import { invalidateAll, jobPageKeys } from '../../lib/query-keys';
import { FormModal } from '../common/FormModal';
import { feeSchedulesKey, feePath } from './useFeeSchedules';

const HINTS: Record<FeeField, string> = {
  percent: 'Of the price shown in the comparison (with shipping where the marketplace gives it)',
  min_commission: 'USD per item; empty for none',
  max_commission: 'USD per item; empty for none',
  fixed: 'USD per item sold',
  shipping_credit: 'USD per item the marketplace pays towards shipping',
};

export function EditFeeSchedule({ schedule, opened, onClose }: { schedule: FeeSchedule; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const label = MARKETPLACES[schedule.marketplace].label;
  const { register, handleSubmit, reset, setError, formState } = useForm<FeeForm>({ mode: FORM_MODE, values: toFeeForm(schedule) });
  const close = () => {
    onClose();
    reset();
  };
  const mutation = useMutation({
    mutationFn: async (v: FeeForm) => (await updateFeeSchedule({ path: feePath(schedule), body: toFeeBody(v) })).data,
    meta: { toastOnError: false },
    onSuccess: (data) => {
      queryClient.setQueryData(feeSchedulesKey(), data);
      showSuccess(`${label} fees saved.`);
      onClose();
    },
    onError: (err) => {
      const byField = fieldErrors(err);
      const known = FEE_FIELDS.filter((f) => byField[f]);
      for (const f of known) setError(f, { type: 'server', message: byField[f] });
      if (known.length === 0) showApiError(err);
    },
    // Comparisons computed with the old fees are stale.
    onSettled: () => invalidateAll(queryClient, jobPageKeys()),
  });

  const numberRule = (f: FeeField) => ({
    validate: (v: string) => {
      if (v.trim() === '') return OPTIONAL_FEE_FIELDS.includes(f) ? true : `${FEE_FIELD_LABELS[f]} is required`;
      return Number.isFinite(Number(v)) || `${FEE_FIELD_LABELS[f]} must be a number`;
    },
  });

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={`Edit ${label} fees`}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      submitDisabled={!formState.isDirty}
      loading={mutation.isPending}
    >
      {FEE_FIELDS.map((f) => (
        <TextInput
          key={f}
          label={FEE_FIELD_LABELS[f]}
          description={HINTS[f]}
          inputMode="decimal"
          withAsterisk={!OPTIONAL_FEE_FIELDS.includes(f)}
          error={formState.errors[f]?.message}
          {...register(f, numberRule(f))}
        />
      ))}
    </FormModal>
  );
}
