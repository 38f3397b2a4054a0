// /scan, for a phone held in one hand: the rear camera, a hardware scanner (keyboard wedge) and
// typing all feed the session. Each book read joins today's scan session (started by the first
// scan) and its verdict shows at once in a band in the outcome's colour, with a sound and a buzz;
// a provisional verdict turns final by itself as the marketplaces answer (live job events).
import { Alert, Button, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useCallback, useRef, useState } from 'react';
import type { ScanPublic } from '../../client/types.gen';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { useLatestSession, useScanCalls, useSessionDetail, useStartSession } from './useScanSession';
import { errorToastMessage, gotNoAnswer } from '../../lib/errors';
import type { OfflineJudgement } from './offline-judge';
import { useOfflinePack } from './useOfflinePack';
import { PageTitle } from '../common/PageTitle';
import { isDecisionsOnly } from '../layout/nav';
import { CameraScanner } from './CameraScanner';
import { OfflinePanel, OfflineVerdict, useOnline } from './OfflinePanel';
import { ScanHistory } from './ScanHistory';
import { useKeyboardWedge } from './useKeyboardWedge';
import { useScanFeedback } from './useScanFeedback';
import { type ScanEntry, useScanReads } from './useScanReads';
import { VerdictBand } from './VerdictBand';
import { listJudgeRuleSetsOptions } from '../../client/@tanstack/react-query.gen';

export function ScanPage() {
  const { data: user } = useCurrentUser();
  const scout = user ? isDecisionsOnly(user) : true;
  const { prefs, setPrefs, prime, signal } = useScanFeedback();
  const latest = useLatestSession();
  // A session picked on this page (started here), 'new' once "New session" is pressed, else today's.
  const [chosen, setChosen] = useState<number | 'new'>();
  const session = chosen === 'new' ? undefined : (chosen ?? latest.data?.id);
  const detail = useSessionDetail(session);
  const calls = useScanCalls(session);
  const [place, setPlace] = useState('');
  const [ruleSet, setRuleSet] = useState<string | null>(null);
  const start = useStartSession((s) => setChosen(s.id));
  const [refusal, setRefusal] = useState<string>();
  const [lastScan, setLastScan] = useState<ScanPublic>();
  // A session being started by the first scan: later reads wait for it instead of starting another.
  // Reads that come before the page re-renders with the new session use it too.
  const starting = useRef<Promise<number> | null>(null);

  const sessionFor = useCallback(async (): Promise<number> => {
    if (session !== undefined) return session;
    starting.current ??= start.mutateAsync({ place: place.trim() || null, rule_set_id: ruleSet ? Number(ruleSet) : null }).then(
      (s) => s.id,
      (err) => {
        starting.current = null; // the next read tries again
        throw err;
      },
    );
    return starting.current;
  }, [session, start, place, ruleSet]);

  // Without a signal a scan is judged on the phone and waits in IndexedDB; once sent, the server's verdict takes over.
  const online = useOnline();
  const [offlineShown, setOfflineShown] = useState<OfflineJudgement>();
  const offline = useOfflinePack({
    send: async (q) => {
      const id = q.session ?? (await sessionFor());
      const scan = await calls.scan.mutateAsync({ code: q.code, client_id: q.client_id, session: id });
      setLastScan(scan);
      setOfflineShown(undefined);
    },
    onRefused: (q, err) => setRefusal(`${q.code}: ${errorToastMessage(err)}`),
  });
  const { judge: judgeFromPack, enqueue } = offline;
  const judgeHere = useCallback(
    async (code: string, clientId: string) => {
      const judgement = judgeFromPack(code, {
        ruleSetId: detail.data?.session.rule_set?.id ?? (ruleSet ? Number(ruleSet) : null),
        costPerBook: detail.data?.scans.find((x) => x.verdict.figures)?.verdict.figures?.cost_per_book ?? null,
      });
      await enqueue({ client_id: clientId, code, session: session ?? null, scanned_at: new Date().toISOString() });
      setOfflineShown(judgement);
      if (!judgement) setRefusal(`${code}: no signal and no offline pack; the scan is sent when the signal returns.`);
      signal(judgement?.outcome?.color ?? 'read');
    },
    [judgeFromPack, enqueue, detail.data, ruleSet, session, signal],
  );

  const onEntry = useCallback(
    (e: ScanEntry) => {
      if (!('isbn' in e.read)) {
        setRefusal(`${e.raw}: ${e.read.reason}`);
        signal('refused');
        return;
      }
      setRefusal(undefined);
      const code = e.read.isbn;
      const clientId = crypto.randomUUID();
      void (async () => {
        if (!navigator.onLine) return judgeHere(code, clientId);
        try {
          const id = await sessionFor();
          const scan = await calls.scan.mutateAsync({ code, client_id: clientId, session: id });
          setLastScan(scan);
          setOfflineShown(undefined);
          signal(scan.verdict.outcome?.color ?? 'read');
        } catch (err) {
          // No answer at all (the signal dropped on the way): judged here, sent again later under the same id.
          if (gotNoAnswer(err)) return judgeHere(code, clientId);
          setRefusal(`${code}: ${errorToastMessage(err)}`);
          signal('refused');
        }
      })();
    },
    [signal, sessionFor, calls.scan, judgeHere],
  );
  const { add } = useScanReads(onEntry);
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

  // The newest scan as the session now reads it (its verdict may have turned final since).
  const newest = detail.data?.scans[0];
  const shown = newest && (!lastScan || newest.id === lastScan.id || lastScan.id < newest.id) ? newest : lastScan;

  return (
    <Stack gap="md" maw={560}>
      <PageTitle>Scan</PageTitle>
      {session === undefined ? (
        <NewSessionFields scout={scout} place={place} onPlace={setPlace} ruleSet={ruleSet} onRuleSet={setRuleSet} />
      ) : (
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} truncate="end" data-testid="scan-session-name">
            {detail.data?.session.name ?? latest.data?.name ?? 'Scan session'}
          </Text>
          <Button
            variant="subtle"
            size="sm"
            onClick={() => {
              // A new session starts with the next scan, with the place and rule set chosen then.
              setChosen('new');
              starting.current = null;
              setLastScan(undefined);
            }}
          >
            New session
          </Button>
        </Group>
      )}
      <OfflinePanel
        kept={offline.kept}
        waiting={offline.waiting}
        online={online}
        busy={offline.download.isPending}
        error={offline.download.error}
        onDownload={() => offline.download.mutate()}
      />
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
          <Button type="submit" size="lg" variant="default" loading={calls.scan.isPending}>
            Look up
          </Button>
        </Group>
      </form>
      {refusal && (
        <Alert color="red" data-testid="scan-refusal">
          {refusal}
        </Alert>
      )}
      {offlineShown && offline.kept ? (
        <OfflineVerdict judgement={offlineShown} savedAt={offline.kept.saved_at} />
      ) : (
        shown && <VerdictBand scan={shown} />
      )}
      <Group gap="lg">
        <Switch label="Sound" checked={prefs.sound} onChange={(e) => setPrefs({ ...prefs, sound: e.currentTarget.checked })} />
        <Switch label="Vibration" checked={prefs.vibration} onChange={(e) => setPrefs({ ...prefs, vibration: e.currentTarget.checked })} />
      </Group>
      {detail.data && (
        <ScanHistory
          detail={detail.data}
          busy={calls.mark.isPending || calls.remove.isPending}
          onMark={(scan, mark) => calls.mark.mutate({ scan, mark })}
          onRemove={(scan) => {
            if (lastScan?.id === scan.id) setLastScan(undefined);
            calls.remove.mutate(scan);
          }}
        />
      )}
    </Stack>
  );
}

/** Where the session is (optional) and, for those who see figures, which rule set judges it. */
function NewSessionFields(props: {
  scout: boolean;
  place: string;
  onPlace: (v: string) => void;
  ruleSet: string | null;
  onRuleSet: (v: string | null) => void;
}) {
  const sets = useQuery({
    ...listJudgeRuleSetsOptions(),
    enabled: !props.scout,
  });
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        A new session starts with your first scan.
      </Text>
      <TextInput
        label="Place (optional)"
        placeholder="e.g. Library sale, Elm St."
        value={props.place}
        onChange={(e) => props.onPlace(e.currentTarget.value)}
      />
      {!props.scout && (
        <Select
          label="Rule set"
          placeholder="The team default"
          clearable
          data={(sets.data?.data ?? []).map((s) => ({
            value: String(s.id),
            label: s.is_team_default ? `${s.name} (team default)` : s.name,
          }))}
          value={props.ruleSet}
          onChange={props.onRuleSet}
        />
      )}
    </Stack>
  );
}
