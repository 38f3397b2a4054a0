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
          {/* The words in a span of their own: a click on the words (the template's users and tests click them) picks the mode. */}
          <Radio value="light" label={<span>Light Mode</span>} />
          <Radio value="dark" label={<span>Dark Mode</span>} />
        </Stack>
      </Radio.Group>
    </Stack>
  );
}
