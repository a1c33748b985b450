import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real CalDAV server for the tests: Radicale (Debian package `radicale`, installed by
 * .ci/run) on 127.0.0.1, with its own storage folder and plain-text htpasswd users, so the
 * calendar code talks the actual protocol to an actual server.
 */
export interface RadicaleUser {
  name: string;
  password: string;
}

export interface Radicale {
  url: string;
  port: number;
  /** Creates a calendar (MKCALENDAR) and answers its address. */
  makeCalendar(user: RadicaleUser, slug: string, displayName: string): Promise<string>;
  /** Puts (or replaces) an iCalendar object into a calendar, answers the new ETag. */
  putEvent(calendarUrl: string, user: RadicaleUser, uid: string, ics: string): Promise<string>;
  deleteEvent(calendarUrl: string, user: RadicaleUser, uid: string): Promise<void>;
  /** The calendar's objects as raw iCalendar text (what the app wrote into it). */
  listEvents(calendarUrl: string, user: RadicaleUser): Promise<string[]>;
  /** Holds the server still (SIGSTOP): requests are accepted and wait for an answer. */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT); the waiting requests are answered. */
  thaw(): void;
  /** Stops the server, keeping its storage: `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its storage. */
  close(): Promise<void>;
}

const RADICALE = process.env.RADICALE_BIN ?? 'radicale';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const basic = (user: RadicaleUser) =>
  `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`;

async function expectOk(response: Response, what: string) {
  if (!response.ok) {
    throw new Error(`Radicale: ${what} answered ${response.status} ${await response.text()}`);
  }
}

/** Starts Radicale with `users` (htpasswd, plain) on a free port; fails clearly when it is missing. */
export async function startRadicale(users: RadicaleUser[]): Promise<Radicale> {
  const probe = spawnSync(RADICALE, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'Radicale, the CalDAV server of the calendar tests, is not installed: ' +
        'run `apt-get install -y radicale` (.ci/run installs it).',
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'radicale-'));
  const port = await freePort();
  writeFileSync(join(folder, 'users'), users.map((u) => `${u.name}:${u.password}\n`).join(''));
  writeFileSync(
    join(folder, 'config'),
    [
      '[server]',
      `hosts = 127.0.0.1:${port}`,
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${join(folder, 'users')}`,
      'htpasswd_encryption = plain',
      // Radicale slows every failed login down by default; the tests check wrong passwords.
      'delay = 0',
      '[rights]',
      'type = owner_only',
      '[storage]',
      `filesystem_folder = ${join(folder, 'collections')}`,
      '[logging]',
      'level = warning',
      'mask_passwords = True',
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let output = '';

  async function start() {
    output = '';
    child = spawn(RADICALE, ['--config', join(folder, 'config')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Radicale exited at start:\n${output}`);
      try {
        await fetch(`${url}/.web/`);
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`Radicale did not answer:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async function stop() {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  }

  await start();
  return {
    url,
    port,
    async makeCalendar(user, slug, displayName) {
      const href = `${url}/${user.name}/${slug}/`;
      const response = await fetch(href, {
        method: 'MKCALENDAR',
        headers: { authorization: basic(user), 'content-type': 'application/xml' },
        body:
          '<?xml version="1.0" encoding="utf-8"?>' +
          '<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>' +
          `<D:displayname>${displayName}</D:displayname>` +
          '<C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>' +
          '</D:prop></D:set></C:mkcalendar>',
      });
      await expectOk(response, `MKCALENDAR ${slug}`);
      return href;
    },
    async putEvent(calendarUrl, user, uid, ics) {
      const response = await fetch(`${calendarUrl}${uid}.ics`, {
        method: 'PUT',
        headers: { authorization: basic(user), 'content-type': 'text/calendar; charset=utf-8' },
        body: ics,
      });
      await expectOk(response, `PUT ${uid}`);
      return response.headers.get('etag') ?? '';
    },
    async deleteEvent(calendarUrl, user, uid) {
      const response = await fetch(`${calendarUrl}${uid}.ics`, {
        method: 'DELETE',
        headers: { authorization: basic(user) },
      });
      await expectOk(response, `DELETE ${uid}`);
    },
    async listEvents(calendarUrl, user) {
      const response = await fetch(calendarUrl, {
        method: 'GET',
        headers: { authorization: basic(user) },
      });
      await expectOk(response, 'GET calendar');
      const text = await response.text();
      return text.split(/(?=BEGIN:VEVENT)/).filter((part) => part.startsWith('BEGIN:VEVENT'));
    },
    freeze() {
      child?.kill('SIGSTOP');
    },
    thaw() {
      child?.kill('SIGCONT');
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** What connectCalendar needs of the app under test (tests/support/api.ts). */
interface CalendarApi {
  call(
    method: string,
    url: string,
    options: { as: { authorization: string }; body: unknown },
  ): Promise<{ status: number; body: any }>;
}

export interface ConnectedCalendar {
  connectionId: string;
  /** The discovered calendars' ids by display name. */
  calendarIds: Record<string, string>;
  /** The answer to the connect call. */
  created: any;
}

/**
 * Connects `user`'s Radicale account for the signed-in coach `as` (through the API, as the
 * profile does) and chooses the blocking and receiving calendars by display name. Fails the
 * test with the answer when a call is refused.
 */
export async function connectCalendar(
  api: CalendarApi,
  as: { authorization: string; coachId?: string | null },
  radicale: Radicale,
  user: RadicaleUser,
  choose: { blocking?: string[]; receiving?: string } = {},
): Promise<ConnectedCalendar> {
  const base = `/api/coach/${as.coachId}/calendar-connections`;
  const created = await api.call('POST', base, {
    as,
    body: { serverUrl: radicale.url, username: user.name, password: user.password },
  });
  if (created.status !== 201) {
    throw new Error(`connecting answered ${created.status} ${JSON.stringify(created.body)}`);
  }
  const calendarIds = Object.fromEntries(
    (created.body.calendars as { displayName: string; id: string }[]).map((c) => [
      c.displayName,
      c.id,
    ]),
  );
  const idOf = (name: string) => {
    const id = calendarIds[name];
    if (!id) throw new Error(`no calendar named ${name} was discovered`);
    return id;
  };
  if (choose.blocking || choose.receiving) {
    const chosen = await api.call('PATCH', `${base}/${created.body.id}`, {
      as,
      body: {
        ...(choose.blocking ? { blockingCalendarIds: choose.blocking.map(idOf) } : {}),
        ...(choose.receiving ? { receivingCalendarId: idOf(choose.receiving) } : {}),
      },
    });
    if (chosen.status !== 200) {
      throw new Error(
        `choosing calendars answered ${chosen.status} ${JSON.stringify(chosen.body)}`,
      );
    }
  }
  return { connectionId: created.body.id, calendarIds, created: created.body };
}

/** One VEVENT (with any VTIMEZONE it needs) wrapped in a VCALENDAR, CRLF line ends. */
export function icsOf(...components: string[]): string {
  return (
    ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Sprechstunde tests//DE', ...components].join(
      '\r\n',
    ) + '\r\nEND:VCALENDAR\r\n'
  );
}

export const NEW_YORK_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');
