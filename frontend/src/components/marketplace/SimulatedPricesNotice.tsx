// Said plainly on every marketplace page when offers come from the local sandbox.
import { Alert } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useAppInfo } from './useAppInfo';

export function SimulatedPricesNotice() {
  const { data } = useAppInfo();
  if (!data?.prices_simulated) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconFlask size={18} />}
      title="Prices are simulated"
      data-testid="prices-simulated"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      No marketplace credentials are configured, so these offers come from the local marketplace sandbox, not from the real marketplace.
    </Alert>
  );
}
