// Active / inactive shown as a coloured dot with its word (docs/requirements.md, Admin).
import { Box, Group, Text } from '@mantine/core';

export function StatusDot({ active }: { active: boolean }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Box w={8} h={8} style={{ borderRadius: '50%' }} bg={active ? 'green.6' : 'red.6'} aria-hidden />
      <Text size="sm">{active ? 'Active' : 'Inactive'}</Text>
    </Group>
  );
}
