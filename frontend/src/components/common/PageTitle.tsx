import { Title } from '@mantine/core';

export function PageTitle({ children }: { children: string }) {
  return (
    <Title order={2} mb="md">
      {children}
    </Title>
  );
}
