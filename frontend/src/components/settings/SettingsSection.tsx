// One settings tab's form: a titled column of fields no wider than a comfortable line.
import { Stack, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

export function SettingsSection({
  title,
  onSubmit,
  children,
}: {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm" maw={480}>
        <Title order={4}>{title}</Title>
        {children}
      </Stack>
    </form>
  );
}
