import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { communications } from '../../db/schema/index';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STATUS = { queued: 'wartet auf Versand', sent: 'versendet', failed: 'fehlgeschlagen' } as const;

const berlin = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/**
 * `GET /dev/mailbox`: the latest 50 captured e-mails, so a person trying the demo can read
 * their one-time code. Registered only outside production.
 */
export function registerDevMailbox(app: FastifyInstance, db: Db) {
  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await db
      .select({
        recipient: communications.recipient,
        subject: communications.subject,
        body: communications.body,
        status: communications.status,
        createdAt: communications.createdAt,
      })
      .from(communications)
      .where(eq(communications.channel, 'email'))
      .orderBy(desc(communications.createdAt))
      .limit(50);
    const items = mails
      .map(
        (m) => `<article>
<h2>${escapeHtml(m.subject ?? '(ohne Betreff)')}</h2>
<p>An: ${escapeHtml(m.recipient)} · ${STATUS[m.status]} · <time datetime="${escapeHtml(m.createdAt)}">${escapeHtml(berlin.format(new Date(m.createdAt)))}</time></p>
<pre>${escapeHtml(m.body)}</pre>
</article>`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="de">
<head><meta charset="utf-8"><title>Postfach (Entwicklung) – Sprechstunde</title></head>
<body>
<h1>Postfach (Entwicklung)</h1>
<p>Die letzten ${mails.length} abgefangenen E-Mails. Diese Seite gibt es nur außerhalb der Produktion.</p>
${items || '<p>Noch keine E-Mails.</p>'}
</body>
</html>`;
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });
}
