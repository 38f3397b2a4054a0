// The hourly watch digest: each user whose watches (those with email on) fired since their last
// digest gets one email listing those notifications, at most once per WATCH_DIGEST_PERIOD_MINUTES,
// through the mailer (SMTP, or the outbox without SMTP_HOST). Each watch has a one-click link that
// stops its email (email-stop.ts), and the message's List-Unsubscribe header (RFC 8058, with
// List-Unsubscribe-Post) stops every watch it lists.
//
// Any number of workers may run the sweep: a user's digest slot (watch_digests) is taken with a
// conditional upsert, so only one of them sends. The slot and the notifications' emailed_at are
// committed before the email is sent, so no lock is held while SMTP talks; a failed send gives
// both back, and the next sweep tries again.
import { WATCH_DIGEST_PERIOD_MINUTES } from '@app/domain/watches';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from '../core/logging.ts';
import type { Mailer, OutgoingEmail } from '../core/mailer.ts';
import type { Db } from '../db/client.ts';
import { escapeHtml } from '../email/templates.ts';
import { notifications, users, watchDigests, watches } from '../db/schema.ts';
import { STOP_TOKEN_MAX_WATCHES, WatchEmailStopTokens } from './email-stop.ts';

export interface DigestSettings {
  mailer: Mailer;
  /** SECRET_KEY: signs the stop links, as the API that checks them does. */
  secretKey: string;
  /** FRONTEND_HOST: the API answers the links under /api/v1 there. */
  linkBase: string;
  projectName: string;
}

/** Users per sweep: a digest is one email each, and a sweep stays short. */
const USERS_PER_SWEEP = 50;
/** Notifications listed in one email; the rest go in the next. */
const NOTIFICATIONS_PER_DIGEST = 200;

interface Pending {
  id: number;
  watch_id: number;
  watch_name: string | null;
  message: string;
  created_at: Date;
}

export class WatchDigest {
  private readonly tokens: WatchEmailStopTokens;

  constructor(
    private readonly db: Db,
    private readonly s: DigestSettings,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    this.tokens = new WatchEmailStopTokens(s.secretKey);
  }

  /** Sends every digest due now; returns the emails sent. */
  async sweep(): Promise<number> {
    const { rows: due } = await this.db.execute<{ user_id: string }>(sql`
      SELECT DISTINCT n.user_id FROM ${notifications} n JOIN ${watches} w ON w.id = n.watch_id AND w.email
      WHERE n.emailed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM ${watchDigests} d WHERE d.user_id = n.user_id
                        AND d.sent_at > now() - ${WATCH_DIGEST_PERIOD_MINUTES} * interval '1 minute')
      LIMIT ${USERS_PER_SWEEP}`);
    let sent = 0;
    for (const { user_id } of due) {
      try {
        if (await this.sendTo(user_id)) sent++;
      } catch (err) {
        this.log.error({ err, user: user_id }, 'sending a watch digest failed; it is tried again at the next sweep');
      }
    }
    return sent;
  }

  /** One user's digest, when their slot is free and something is waiting. */
  private async sendTo(userId: string): Promise<boolean> {
    const claimed = await this.db.transaction(async (tx) => {
      const { rows: previous } = await tx.execute<{ sent_at: string | null }>(sql`
        SELECT (SELECT sent_at::text FROM ${watchDigests} WHERE user_id = ${userId}) AS sent_at`);
      const { rows: slot } = await tx.execute(sql`
        INSERT INTO ${watchDigests} (user_id, sent_at) VALUES (${userId}, now())
        ON CONFLICT (user_id) DO UPDATE SET sent_at = now()
        WHERE ${watchDigests}.sent_at <= now() - ${WATCH_DIGEST_PERIOD_MINUTES} * interval '1 minute'
        RETURNING 1`);
      if (slot.length === 0) return undefined; // another sweep sent it within the period
      const pending: Pending[] = await tx
        .select({
          id: notifications.id,
          watch_id: watches.id,
          watch_name: watches.name,
          message: notifications.message,
          created_at: notifications.created_at,
        })
        .from(notifications)
        .innerJoin(watches, and(eq(watches.id, notifications.watch_id), eq(watches.email, true)))
        .where(and(eq(notifications.user_id, userId), isNull(notifications.emailed_at)))
        .orderBy(asc(notifications.id))
        .limit(NOTIFICATIONS_PER_DIGEST)
        .for('update', { of: notifications });
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (pending.length === 0 || !user) {
        await restoreSlot(tx, userId, previous[0]?.sent_at ?? null);
        return undefined;
      }
      await tx
        .update(notifications)
        .set({ emailed_at: sql`now()` })
        .where(
          inArray(
            notifications.id,
            pending.map((p) => p.id),
          ),
        );
      return { pending, email: user.email, previous: previous[0]?.sent_at ?? null };
    });
    if (!claimed) return false;
    try {
      await this.s.mailer.send(this.message(claimed.email, claimed.pending));
    } catch (err) {
      // Given back: the next sweep sends them (this one's slot is not spent on an email that never left).
      await this.db.transaction(async (tx) => {
        await tx
          .update(notifications)
          .set({ emailed_at: null })
          .where(
            inArray(
              notifications.id,
              claimed.pending.map((p) => p.id),
            ),
          );
        await restoreSlot(tx, userId, claimed.previous);
      });
      throw err;
    }
    return true;
  }

  private stopLink(watchIds: readonly number[]): string {
    return `${this.s.linkBase.replace(/\/$/, '')}/api/v1/watches/email-stop?token=${encodeURIComponent(this.tokens.tokenFor(watchIds))}`;
  }

  private message(to: string, pending: Pending[]): OutgoingEmail {
    const byWatch = new Map<number, Pending[]>();
    for (const p of pending) byWatch.set(p.watch_id, [...(byWatch.get(p.watch_id) ?? []), p]);
    const n = pending.length;
    const subject = `${this.s.projectName} - ${n} watch alert${n === 1 ? '' : 's'}`;
    const sections = [...byWatch].map(([watchId, items]) => ({
      title: items[0]?.watch_name ?? `Watch ${watchId}`,
      lines: items.map((p) => `${p.created_at.toISOString().slice(0, 16).replace('T', ' ')} UTC  ${p.message}`),
      stop: this.stopLink([watchId]),
    }));
    const text = [
      `Your watches fired ${n} time${n === 1 ? '' : 's'} since the last digest.`,
      '',
      ...sections.flatMap((s) => [s.title, ...s.lines.map((l) => `  ${l}`), `  Stop emails for this watch: ${s.stop}`, '']),
      'The alerts stay in the app under Notifications.',
    ].join('\n');
    const html = `<!doctype html><html><body style="font-family:sans-serif;color:#111">
<p>Your watches fired ${n} time${n === 1 ? '' : 's'} since the last digest.</p>
${sections
  .map(
    (s) =>
      `<h3>${escapeHtml(s.title)}</h3><ul>${s.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul><p><a href="${escapeHtml(s.stop)}">Stop emails for this watch</a></p>`,
  )
  .join('\n')}
<p>The alerts stay in the app under Notifications.</p>
</body></html>`;
    const watchIds = [...byWatch.keys()];
    // RFC 8058: a mail client's one-click unsubscribe POSTs to this link; it stops every watch of this digest.
    const headers =
      watchIds.length <= STOP_TOKEN_MAX_WATCHES
        ? { 'List-Unsubscribe': `<${this.stopLink(watchIds)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
        : undefined;
    return { to, subject, text, html, ...(headers ? { headers } : {}) };
  }
}

/** Puts a user's digest slot back as it was (no row when there was none). */
async function restoreSlot(tx: Pick<Db, 'execute'>, userId: string, previous: string | null): Promise<void> {
  if (previous) await tx.execute(sql`UPDATE ${watchDigests} SET sent_at = ${previous}::timestamptz WHERE user_id = ${userId}`);
  else await tx.execute(sql`DELETE FROM ${watchDigests} WHERE user_id = ${userId}`);
}
