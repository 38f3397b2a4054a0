// Retry failed and Re-price act on all the job's marketplaces or one: a dialog that asks which,
// then runs the action. `count` (when known) says how many lookups a choice would move.
import { MARKETPLACE_LIST, type MarketplaceSlug } from '@app/domain/marketplaces';
import { Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { JobPublic } from '../../client/types.gen';
import { DialogButtons } from '../common/DialogButtons';

export const ALL_MARKETPLACES = 'all';

export interface MarketplaceChoiceDialogProps {
  job: JobPublic;
  opened: boolean;
  onClose: () => void;
  title: string;
  message: string;
  confirmLabel: string;
  /** Lookups the choice would act on; undefined while unknown. */
  count?: (slug: MarketplaceSlug | undefined) => number | undefined;
  /** How a known count reads in the choice list, e.g. '3 failed'. */
  detail?: (slug: MarketplaceSlug | undefined) => string | undefined;
  loading: boolean;
  onConfirm: (slug: MarketplaceSlug | undefined) => void;
}

export function MarketplaceChoiceDialog({
  job,
  opened,
  onClose,
  title,
  message,
  confirmLabel,
  count,
  detail,
  loading,
  onConfirm,
}: MarketplaceChoiceDialogProps) {
  const [choice, setChoice] = useState<string>(ALL_MARKETPLACES);
  const slug = choice === ALL_MARKETPLACES ? undefined : (choice as MarketplaceSlug);
  const label = (name: string, s: MarketplaceSlug | undefined) => {
    const known = detail?.(s);
    return known ? `${name} (${known})` : name;
  };
  const data = [
    { value: ALL_MARKETPLACES, label: label('All marketplaces', undefined) },
    ...MARKETPLACE_LIST.filter((m) => job[m.id].enabled).map((m) => ({ value: m.slug, label: label(m.label, m.slug) })),
  ];
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="sm">
        <Text size="sm">{message}</Text>
        <Select label="Marketplaces" data={data} value={choice} onChange={(v) => setChoice(v ?? ALL_MARKETPLACES)} allowDeselect={false} />
      </Stack>
      <DialogButtons
        onCancel={onClose}
        loading={loading}
        action={{ label: confirmLabel, disabled: count?.(slug) === 0, onClick: () => onConfirm(slug) }}
      />
    </Modal>
  );
}
