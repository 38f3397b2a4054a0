// How a missing value reads in every table ("N/A": docs/requirements.md, Marketplace pages).
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

export function OrNA({ value, children }: { value: unknown; children?: ReactNode }) {
  if (isEmptyValue(value)) {
    return (
      <Text span c="dimmed" fs="italic" size="sm">
        N/A
      </Text>
    );
  }
  return <>{children ?? String(value)}</>;
}
