// /scan, for a phone held in one hand: the rear camera, a hardware scanner (keyboard wedge) and
// typing all feed one list of what was read. The verdict per scan comes later (issue 31).
import { Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { type FormEvent, useCallback, useState } from 'react';
import { PageTitle } from '../common/PageTitle';
import { CameraScanner } from './CameraScanner';
import { ScanList } from './ScanList';
import { useKeyboardWedge } from './useKeyboardWedge';
import { useScanFeedback } from './useScanFeedback';
import { type ScanEntry, useScanReads } from './useScanReads';

export function ScanPage() {
  const { prefs, setPrefs, prime, signal } = useScanFeedback();
  const onEntry = useCallback((e: ScanEntry) => signal('isbn' in e.read ? 'read' : 'refused'), [signal]);
  const { entries, add } = useScanReads(onEntry);
  const [typed, setTyped] = useState('');

  useKeyboardWedge(useCallback((text: string) => add(text, 'scanner'), [add]));
  const onCamera = useCallback((text: string, format: string) => add(text, 'camera', format), [add]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim() === '') return;
    prime();
    add(typed, 'typed');
    setTyped('');
  };

  return (
    <Stack gap="md" maw={560}>
      <PageTitle>Scan</PageTitle>
      <CameraScanner onCode={onCamera} onStart={prime} />
      <form onSubmit={submit}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="ISBN"
            placeholder="Type or scan an ISBN"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            size="lg"
            style={{ flex: 1 }}
          />
          <Button type="submit" size="lg" variant="default">
            Look up
          </Button>
        </Group>
      </form>
      <Group gap="lg">
        <Switch label="Sound" checked={prefs.sound} onChange={(e) => setPrefs({ ...prefs, sound: e.currentTarget.checked })} />
        <Switch label="Vibration" checked={prefs.vibration} onChange={(e) => setPrefs({ ...prefs, vibration: e.currentTarget.checked })} />
      </Group>
      <ScanList entries={entries} />
    </Stack>
  );
}
