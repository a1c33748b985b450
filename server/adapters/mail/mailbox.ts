import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { communications } from '../../db/schema/index';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const STATUS = {
  queued: 'wartet auf Versand',
  sent: 'versendet',
  failed: 'fehlgeschlagen',
} as const;

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
        id: communications.id,
        recipient: communications.recipient,
        calendarMethod: communications.calendarMethod,
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
${m.calendarMethod ? `<p>Anhang: <a href="/dev/mailbox/${m.id}/invite.ics" download="einladung.ics">einladung.ics</a> (${m.calendarMethod === 'CANCEL' ? 'Absage' : 'Einladung'})</p>` : ''}
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

  // The calendar part of a captured e-mail, as a calendar app would receive it.
  app.get<{ Params: { id: string } }>(
    '/dev/mailbox/:id/invite.ics',
    {
      schema: {
        hide: true,
        params: {
          type: 'object',
          properties: { id: { type: 'string', format: 'uuid' } },
          required: ['id'],
        },
      },
    },
    async (request, reply) => {
      const [mail] = await db
        .select({ calendar: communications.calendar, method: communications.calendarMethod })
        .from(communications)
        .where(and(eq(communications.id, request.params.id), eq(communications.channel, 'email')));
      if (!mail?.calendar)
        return reply.code(404).type('text/plain; charset=utf-8').send('Kein Anhang');
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="einladung.ics"')
        .type(`text/calendar; charset=utf-8; method=${mail.method ?? 'REQUEST'}`)
        .send(mail.calendar);
    },
  );
}
