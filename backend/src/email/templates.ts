// Email bodies: each message has a plain-text and an HTML part.
import type { OutgoingEmail } from '../core/mailer.ts';

/** Text made safe inside HTML (element content and quoted attributes). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function resetPasswordEmail(opts: { projectName: string; email: string; link: string; validHours: number }): OutgoingEmail {
  const { projectName, email, link, validHours } = opts;
  const subject = `${projectName} - Password recovery for user ${email}`;
  const text = [
    `Hello ${email},`,
    '',
    `We received a request to recover the password of your ${projectName} account.`,
    'Open this link to set a new password:',
    link,
    '',
    `The link is valid for ${validHours} hours and works once.`,
    "If you didn't ask for this, you can ignore this email.",
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#111">
<p>Hello ${escapeHtml(email)},</p>
<p>We received a request to recover the password of your ${escapeHtml(projectName)} account.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">Reset password</a></p>
<p>Or paste this link into your browser: <br>${escapeHtml(link)}</p>
<p>The link is valid for ${validHours} hours and works once. If you didn't ask for this, you can ignore this email.</p>
</body></html>`;
  return { to: email, subject, text, html };
}
