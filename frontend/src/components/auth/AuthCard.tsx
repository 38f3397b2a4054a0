// Centered card shared by the public pages (login, sign-up, recovery, reset).
import { Center, Paper, Stack, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

export interface AuthCardProps {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Let the browser check native constraints (e.g. minLength) before submitting. */
  nativeValidation?: boolean;
  children: ReactNode;
}

export function AuthCard({ title, onSubmit, nativeValidation = false, children }: AuthCardProps) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={onSubmit} noValidate={!nativeValidation}>
          <Stack gap="md">
            <Title order={2} ta="center">
              {title}
            </Title>
            {children}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
