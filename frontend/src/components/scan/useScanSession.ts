// The scan page's data: today's session (resumed, or started on the first scan), its scans and
// verdicts (refetched by the live job events, which name the session's job as its lookups land:
// provisional verdicts turn final by themselves), and the scan, mark and undo calls.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  listScanSessionsOptions,
  listScanSessionsQueryKey,
  readScanSessionOptions,
  readScanSessionQueryKey,
} from '../../client/@tanstack/react-query.gen';
import { addScan, createScanSession, markScan, removeScan } from '../../client/sdk.gen';
import type { ScanPublic, ScanSessionPublic } from '../../client/types.gen';
import { isToday } from './scan-view';

/** The latest session: today's when it was started today. */
const LATEST = { query: { limit: 1 } };

export function useLatestSession() {
  return useQuery({
    ...listScanSessionsOptions(LATEST),
    select: (page) => page.data.find((s) => isToday(s.created_at)),
  });
}

export function useSessionDetail(id: number | undefined) {
  return useQuery({
    // Among the queries about its job (lib/query-keys.ts), so the live stream refreshes it (useLiveJobEvents).
    ...readScanSessionOptions({ path: { id: id ?? 0 } }),
    enabled: id !== undefined,
    // A provisional verdict also settles without an event when the stream is down.
    refetchInterval: (q) => (q.state.data?.scans.some((s) => s.verdict.state === 'provisional') ? 5_000 : false),
  });
}

export function useStartSession(onStarted: (s: ScanSessionPublic) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { place?: string | null; rule_set_id?: number | null }) => (await createScanSession({ body })).data,
    onSuccess: (session) => {
      queryClient.setQueryData(listScanSessionsQueryKey(LATEST), { data: [session], count: 1, count_exact: true });
      onStarted(session);
    },
  });
}

export function useScanCalls(sessionId: number | undefined) {
  const queryClient = useQueryClient();
  const refresh = () =>
    sessionId !== undefined && queryClient.invalidateQueries({ queryKey: readScanSessionQueryKey({ path: { id: sessionId } }) });
  const scan = useMutation({
    mutationFn: async (input: { code: string; client_id: string; session: number }) =>
      (await addScan({ path: { id: input.session }, body: { code: input.code, client_id: input.client_id } })).data as ScanPublic,
    onSuccess: refresh,
  });
  const mark = useMutation({
    mutationFn: async (input: { scan: ScanPublic; mark: 'bought' | 'left' | null }) =>
      (await markScan({ path: { id: sessionId ?? 0, scan_id: input.scan.id }, body: { mark: input.mark ?? 'none' } })).data,
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (scan: ScanPublic) => {
      await removeScan({ path: { id: sessionId ?? 0, scan_id: scan.id } });
    },
    onSuccess: refresh,
  });
  return { scan, mark, remove };
}
