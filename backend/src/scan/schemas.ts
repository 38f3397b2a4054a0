// Shapes of the scan API (/scan/…): sessions, scans and their verdicts.
import { OFFLINE_PACK_FORMAT } from '@app/domain/offline-pack';
import { RULE_COLORS } from '@app/domain/rules';
import { SCAN_MARKS, SCAN_PLACE_MAX_LENGTH } from '@app/domain/scan';
import { z } from 'zod';
import { IsbnText } from '../lib/isbn-schema.ts';
import { CountFields } from '../lib/api-schemas.ts';

export const ScanSessionCreate = z
  .object({
    place: z.string().trim().max(SCAN_PLACE_MAX_LENGTH).nullish(),
    /** The rule set to judge scans with (one of yours, or the team default); the team default when absent. */
    rule_set_id: z.number().int().nullish(),
  })
  .meta({ id: 'ScanSessionCreate' });

export const ScanSessionPublic = z
  .object({
    /** The session's job id: its page, comparison and CSVs are the job's. */
    id: z.number().int(),
    name: z.string(),
    created_at: z.date(),
    rule_set: z.object({ id: z.number().int(), name: z.string(), version: z.number().int() }).nullable(),
    scans: z.number().int(),
  })
  .meta({ id: 'ScanSessionPublic' });

export const ScanSessionsPublic = z.object({ data: z.array(ScanSessionPublic), ...CountFields }).meta({ id: 'ScanSessionsPublic' });

const Figures = z
  .object({
    title: z.string().nullable(),
    best_price: z.number().nullable(),
    best_source: z.string().nullable(),
    amazon_sales_rank: z.number().nullable(),
    estimated_profit: z.number().nullable(),
    cost_per_book: z.number().nullable(),
  })
  .meta({ id: 'ScanFigures' });

export const ScanVerdict = z
  .object({
    /** The session's rule set's outcome; null when there is no rule set to judge with. */
    outcome: z.object({ name: z.string(), color: z.enum(RULE_COLORS) }).nullable(),
    /** provisional while a marketplace has not answered yet; final once all have. */
    state: z.enum(['provisional', 'final']),
    waiting_for: z.array(z.string()),
    /** The figures behind the verdict; null for a "decisions only" account. */
    figures: Figures.nullable(),
  })
  .meta({ id: 'ScanVerdict' });

export const ScanPublic = z
  .object({
    id: z.number().int(),
    client_id: z.string().uuid(),
    isbn: z.string(),
    scanned_at: z.date(),
    /** bought, left, or null when not marked. */
    mark: z.string().nullable(),
    /** How many scans of this ISBN the session holds (copies). */
    copies: z.number().int(),
    /** The same ISBN marked bought in another session within SCAN_DUPLICATE_DAYS: when, by whom, where. */
    bought_elsewhere: z.object({ at: z.date(), by: z.string(), session: z.string() }).nullable(),
    verdict: ScanVerdict,
  })
  .meta({ id: 'ScanPublic' });

export const OutcomeCount = z
  .object({ name: z.string(), color: z.enum(RULE_COLORS), scans: z.number().int() })
  .meta({ id: 'OutcomeCount' });

export const ScanSessionDetail = z
  .object({
    session: ScanSessionPublic,
    /** Newest first (at most the latest SCANS_SHOWN). */
    scans: z.array(ScanPublic),
    outcomes: z.array(OutcomeCount),
    /** Of the scans marked bought: their count, cost (the job's cost per book each) and estimated profit; null figures for "decisions only". */
    bought: z.object({ scans: z.number().int(), cost: z.number().nullable(), estimated_profit: z.number().nullable() }),
  })
  .meta({ id: 'ScanSessionDetail' });

export const ScanCreate = z
  .object({
    /** What the camera, a scanner or the keyboard read: an ISBN-13 (Bookland EAN, an add-on ignored) or an ISBN-10. */
    code: IsbnText,
    /** Made by the phone, so a scan sent twice (a retried upload) joins the session once. */
    client_id: z.string().uuid().nullish(),
  })
  .meta({ id: 'ScanCreate' });

// 'none' clears a mark (the client generator drops null from an enum, so "no mark" is a value of its own).
export const ScanMarkBody = z.object({ mark: z.enum([...SCAN_MARKS, 'none']) }).meta({ id: 'ScanMarkBody' });

const id = (what: string, max: number) =>
  z.coerce.number().int(`Invalid ${what} id`).positive(`Invalid ${what} id`).max(max, `Invalid ${what} id`);
export const SessionParam = z.object({ id: id('session', 2_147_483_647) });
export const ScanParam = SessionParam.extend({ scan_id: id('scan', Number.MAX_SAFE_INTEGER) });

/** `since`: a pack's version (digits, and for a verdict pack what it was judged with). */
export const OfflinePackQuery = z.object({
  since: z
    .string()
    .regex(/^\d{1,16}(:\d{1,16}\.\d{1,16})?$/, 'since must be the version of a pack this API sent')
    .optional(),
});

const CodedText = z.object({ values: z.array(z.string()), codes: z.array(z.number().int()) });
const packBase = {
  format: z.literal(OFFLINE_PACK_FORMAT),
  /** Send back as `since` to get only what changed after this pack. */
  version: z.string(),
  /** True: only the ISBNs answered since `since`, to merge into the pack kept. */
  delta: z.boolean(),
  days: z.number().int(),
  built_at: z.string(),
  /** Ascending; every per-ISBN array follows this order. */
  isbns: z.array(z.string()),
};
const FeeScheduleFigures = z.object({
  percent: z.number(),
  min_commission: z.number().nullable(),
  max_commission: z.number().nullable(),
  fixed: z.number(),
  shipping_credit: z.number(),
});

export const OfflinePack = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('figures'),
      ...packBase,
      /** Per column one value per ISBN; prices (`<marketplace>_price`) in integer cents. */
      numbers: z.record(z.string(), z.array(z.number().nullable())),
      /** Per column its distinct values and one code per ISBN (0: empty, else 1 + the value's place). */
      texts: z.record(z.string(), CodedText),
      rule_sets: z.array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          is_team_default: z.boolean(),
          version: z.number().int(),
          version_id: z.number().int(),
          rules: z.array(z.unknown()),
        }),
      ),
      fees: z.record(z.string(), FeeScheduleFigures),
    }),
    z.object({
      kind: z.literal('verdicts'),
      ...packBase,
      rule_set: z.object({ id: z.number().int(), name: z.string(), version: z.number().int() }).nullable(),
      outcomes: z.array(z.object({ name: z.string(), color: z.enum(RULE_COLORS) })),
      /** Per ISBN its outcome's place in `outcomes`. */
      codes: z.array(z.number().int()),
      /** The outcome of an ISBN the pack lacks; null when the rules test the ISBN itself. */
      unknown: z.number().int().nullable(),
    }),
  ])
  .meta({ id: 'OfflinePack' });
