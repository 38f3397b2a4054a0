// The scan page's offline pack: "Make available offline" downloads it, the page says how old and
// big it is and how many books it holds, and refreshes it by delta; and the verdict of a scan made
// without a signal, marked "offline" with the pack's age.
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorToastMessage, gotNoAnswer } from '../../lib/errors';
import { OFFLINE_PACK_TEXT } from '../../lib/messages';
import { type OfflineJudgement, packAge, packSize } from './offline-judge';
import type { KeptPack } from '../../lib/offline-store';
import { bandColors } from './VerdictBand';

/** Whether the browser says it has a network (the `online` / `offline` events). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

export function OfflinePanel(props: {
  kept: KeptPack | undefined;
  waiting: number;
  online: boolean;
  busy: boolean;
  error: unknown;
  onDownload: () => void;
}) {
  const { kept, waiting, online } = props;
  return (
    <Stack gap={6} data-testid="offline-panel">
      {!online && (
        <Alert color="yellow" py="xs" data-testid="offline-notice">
          {kept ? 'No signal: scans are judged on this phone from the offline pack.' : 'No signal, and no offline pack on this phone.'}
        </Alert>
      )}
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="offline-pack-info">
          {kept
            ? `Offline: ${kept.pack.isbns.length.toLocaleString('en-US')} book${kept.pack.isbns.length === 1 ? '' : 's'} · ${packSize(kept.bytes)} · ${packAge(kept.saved_at)} old`
            : 'Not available offline on this phone yet.'}
        </Text>
        <Button size="xs" variant="default" onClick={props.onDownload} loading={props.busy} disabled={!online}>
          {kept ? 'Refresh offline pack' : 'Make available offline'}
        </Button>
      </Group>
      {waiting > 0 && (
        <Text size="sm" fw={600} data-testid="offline-waiting">
          {waiting === 1 ? '1 scan waits for the signal.' : `${waiting} scans wait for the signal.`}
        </Text>
      )}
      {props.error !== null && props.error !== undefined && (
        <Text size="sm" c="red.8" data-testid="offline-pack-error">
          {downloadError(props.error, kept !== undefined)}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Why the pack was not downloaded. With no answer at all (the signal went mid-download, as on a shop
 * floor), it says so, and that the pack already on the phone is still the one scans use.
 */
function downloadError(err: unknown, kept: boolean): string {
  if (!gotNoAnswer(err)) return errorToastMessage(err);
  return kept ? OFFLINE_PACK_TEXT.notRefreshed : OFFLINE_PACK_TEXT.notDownloaded;
}

/** A scan judged on the phone: the outcome's band, marked offline, with the pack's age. */
export function OfflineVerdict({ judgement, savedAt }: { judgement: OfflineJudgement; savedAt: string }) {
  const { bg, fg } = bandColors(judgement.outcome?.color ?? 'gray');
  return (
    <Paper
      radius="md"
      p="md"
      style={{ background: bg, color: fg }}
      data-testid="offline-verdict"
      data-outcome={judgement.outcome?.name ?? ''}
      role="status"
      aria-live="polite"
    >
      <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
        <Title order={2} fz={40} lh={1.1} c="inherit">
          {judgement.outcome?.name ?? 'No verdict offline'}
        </Title>
        <Badge color="dark" variant="filled" size="lg" data-testid="offline-mark">
          offline
        </Badge>
      </Group>
      <Text c="inherit" fw={600} mt={4}>
        {judgement.isbn}
      </Text>
      <Text c="inherit" size="sm" mt={4}>
        {`From the offline pack, ${packAge(savedAt)} old${judgement.known ? '' : ', which has no answer for this book yet'}. Sent to the session when the signal returns.`}
      </Text>
    </Paper>
  );
}
