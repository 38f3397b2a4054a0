// "Appearance" tab: light (default) or dark, remembered by Mantine's colour scheme manager.
import { Radio, Stack, Title, useMantineColorScheme } from '@mantine/core';

export function Appearance() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Stack gap="sm">
      <Title order={4}>Appearance</Title>
      <Radio.Group
        value={colorScheme === 'dark' ? 'dark' : 'light'}
        onChange={(v) => setColorScheme(v === 'dark' ? 'dark' : 'light')}
        label="Color mode"
      >
        <Stack gap="xs" mt="xs">
          <Radio value="light" label="Light Mode" />
          <Radio value="dark" label="Dark Mode" />
        </Stack>
      </Radio.Group>
    </Stack>
  );
}
