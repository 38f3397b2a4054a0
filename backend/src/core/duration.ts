// Durations in settings, written the way people say them: `24h`, `90m`, `30s`, `1d`, `500ms`, or `0`.
import { z } from 'zod';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** Milliseconds of a duration, or undefined when the text is not one (a bare number needs its unit, except 0). */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^0+(\.0+)?$/.test(trimmed)) return 0;
  const match = DURATION.exec(trimmed);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
}

/** An environment variable holding a duration; parses to milliseconds. */
export const envDuration = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: 'Expected a duration such as 24h, 90m, 30s, 1d or 0' });
    return z.NEVER;
  }
  return ms;
});
