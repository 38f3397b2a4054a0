// The scan page's API: a session (a job of scans), each scan's verdict at once from what the team
// already knows, marks, undo. Figures are left out for a "decisions only" account (decisions-only-routes.ts).
import { SCAN_SESSION_FILENAME } from '@app/domain/scan';
import { z } from 'zod';
import { auditStep, requestActor } from '../audit/record.ts';
import type { App, AppContext } from '../core/context.ts';
import { currentUsableVersion } from '../decisions/versions.ts';
import type { JobRow } from '../jobs/repository.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { announceInteractiveWork } from '../worker/interactive-jobs.ts';
import { teamDefaultVersion } from '../rules/repository.ts';
import { currentUser } from '../users/current-user.ts';
import type { UserRow } from '../users/schemas.ts';
import {
  addScan,
  createSession,
  findScan,
  findSession,
  listSessions,
  markScan,
  removeScan,
  scanViews,
  sessionDetail,
  sessionPublic,
  type ScanView,
  type Settings,
} from './repository.ts';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { buildFiguresPack, buildVerdictPack } from './offline-pack.ts';
import {
  OfflinePack,
  OfflinePackQuery,
  ScanCreate,
  ScanMarkBody,
  ScanParam,
  ScanPublic,
  ScanSessionCreate,
  ScanSessionDetail,
  ScanSessionPublic,
  ScanSessionsPublic,
  SessionParam,
} from './schemas.ts';

const tags = ['scan'];
const gzipAsync = promisify(gzip);

/** A scan as the API shows it to `user`: no figure for a "decisions only" account. */
export function scanPublic(v: ScanView, user: UserRow): z.input<typeof ScanPublic> {
  const verdict = v.verdict;
  return {
    id: v.scan.id,
    client_id: v.scan.client_id,
    isbn: v.scan.isbn,
    scanned_at: v.scan.scanned_at,
    mark: v.scan.mark,
    copies: v.copies,
    bought_elsewhere: v.bought_elsewhere,
    verdict: {
      outcome: verdict?.outcome ? { name: verdict.outcome.name, color: verdict.outcome.color } : null,
      state: verdict?.state ?? 'provisional',
      waiting_for: verdict?.waiting_for ?? [],
      figures: user.decisions_only ? null : (verdict?.figures ?? null),
    },
  };
}

export function scanRoutes(app: App, ctx: AppContext): void {
  const settings: Settings = { reuseWindowMs: ctx.config.LOOKUP_REUSE_WINDOW, duplicateDays: ctx.config.SCAN_DUPLICATE_DAYS };

  app.post('/scan/sessions', {
    schema: {
      operationId: 'createScanSession',
      tags,
      summary: 'Start a scan session (a job each scan adds its ISBN to), judged with the team default or a rule set of yours',
      body: ScanSessionCreate,
      response: { 201: ScanSessionPublic, 422: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const user = currentUser(req);
      const version = req.body.rule_set_id
        ? await currentUsableVersion(ctx.db, user, req.body.rule_set_id)
        : await teamDefaultVersion(ctx.db);
      const audit = auditStep(requestActor(req), (job: JobRow) => ({
        action: 'job.created',
        target: { type: 'job', id: job.id, label: job.name },
        details: { input_filename: SCAN_SESSION_FILENAME, isbns: 0, marketplaces: [] },
      }));
      const job = await createSession(ctx.db, user, req.body.place, version, audit);
      ctx.jobEvents.touched(job.id);
      reply.code(201);
      return sessionPublic(ctx.db, job, 0);
    },
  });

  app.get('/scan/sessions', {
    schema: {
      operationId: 'listScanSessions',
      tags,
      summary: 'Your scan sessions, newest first',
      querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
      response: { 200: ScanSessionsPublic },
    },
    handler: async (req) => listSessions(ctx.db, currentUser(req), req.query.limit),
  });

  app.get('/scan/sessions/:id', {
    schema: {
      operationId: 'readScanSession',
      tags,
      summary: 'A scan session: its latest scans with their verdicts, a count per outcome, and the totals of what was bought',
      params: SessionParam,
      response: { 200: ScanSessionDetail, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const user = currentUser(req);
      const job = await findSession(ctx.db, user, req.params.id);
      const d = await sessionDetail(ctx.db, job, settings);
      const hide = user.decisions_only;
      return {
        session: d.session,
        scans: d.views.map((v) => scanPublic(v, user)),
        outcomes: d.outcomes as z.input<typeof ScanSessionDetail>['outcomes'],
        bought: { scans: d.bought.scans, cost: hide ? null : d.bought.cost, estimated_profit: hide ? null : d.bought.estimated_profit },
      };
    },
  });

  app.post('/scan/sessions/:id/scans', {
    schema: {
      operationId: 'addScan',
      tags,
      summary: "Scan a book: its verdict at once from the team's recent answers; the missing ones are asked first in the queue",
      params: SessionParam,
      body: ScanCreate,
      response: { 200: ScanPublic, 201: ScanPublic, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const user = currentUser(req);
      const job = await findSession(ctx.db, user, req.params.id);
      const { view, created, queued } = await addScan(ctx.db, user, job, req.body.code, req.body.client_id, settings);
      // The session's page hears of the scan; the workers claim its new lookups at once.
      if (created) ctx.jobEvents.touched(job.id);
      if (queued) await announceInteractiveWork(ctx.db);
      reply.code(created ? 201 : 200);
      return scanPublic(view, user);
    },
  });

  app.get('/scan/offline-pack', {
    schema: {
      operationId: 'readOfflinePack',
      tags,
      summary:
        "The offline pack: the team's latest answers within OFFLINE_PACK_DAYS with the rule sets and fees to judge them with (a 'decisions only' account: the team default's outcome per ISBN, no figure); gzip-compressed",
      querystring: OfflinePackQuery,
      response: { 200: OfflinePack, 422: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const user = currentUser(req);
      const days = ctx.config.OFFLINE_PACK_DAYS;
      const since = req.query.since ? Number(req.query.since.split(':')[0]) : undefined;
      const pack = user.decisions_only
        ? await buildVerdictPack(ctx.db, { days, since, sinceVersion: req.query.since })
        : await buildFiguresPack(ctx.db, user, { days, since });
      const json = JSON.stringify(pack);
      reply.header('cache-control', 'no-store').header('vary', 'accept-encoding').type('application/json; charset=utf-8');
      // Sent as the text built here (a string or a buffer skips the response serializer, which would
      // walk every array again). The API does not compress; this is its one large answer (tens of MB
      // as text for 1M ISBNs), so it is gzipped for any client that takes gzip (every browser).
      if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return reply.send(json as never);
      return reply.header('content-encoding', 'gzip').send((await gzipAsync(json)) as never);
    },
  });

  app.get('/scan/sessions/:id/scans/:scan_id', {
    schema: {
      operationId: 'readScan',
      tags,
      summary: 'One scan and its verdict as it stands (provisional until every marketplace answered)',
      params: ScanParam,
      response: { 200: ScanPublic, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const user = currentUser(req);
      const job = await findSession(ctx.db, user, req.params.id);
      const [view] = await scanViews(ctx.db, job, [await findScan(ctx.db, job.id, req.params.scan_id)], settings);
      return scanPublic(view as ScanView, user);
    },
  });

  app.patch('/scan/sessions/:id/scans/:scan_id', {
    schema: {
      operationId: 'markScan',
      tags,
      summary: "Mark a scan bought or left ('none' clears the mark)",
      params: ScanParam,
      body: ScanMarkBody,
      response: { 200: ScanPublic, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const user = currentUser(req);
      const job = await findSession(ctx.db, user, req.params.id);
      const row = await markScan(ctx.db, job.id, req.params.scan_id, req.body.mark === 'none' ? null : req.body.mark);
      const [view] = await scanViews(ctx.db, job, [row], settings);
      return scanPublic(view as ScanView, user);
    },
  });

  app.delete('/scan/sessions/:id/scans/:scan_id', {
    schema: {
      operationId: 'removeScan',
      tags,
      summary: 'Remove a scan (undo); the ISBN leaves the session with its last scan',
      params: ScanParam,
      response: { 204: z.null(), 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const job = await findSession(ctx.db, currentUser(req), req.params.id);
      await removeScan(ctx.db, job, req.params.scan_id);
      ctx.jobEvents.touched(job.id);
      reply.code(204);
      return null;
    },
  });
}
