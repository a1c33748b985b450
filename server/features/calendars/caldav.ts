/**
 * The CalDAV side, through tsdav: sign in and discover (well-known address, principal,
 * calendar home), list the event calendars, read their objects, and put or delete the
 * objects of written appointments. Every request has a time limit, and failures are sorted
 * into the few causes a coach can act on.
 */
import { DAVClient } from 'tsdav';
import { guardedFetch } from './guarded-fetch';

export interface CalDavAccount {
  serverUrl: string;
  username: string;
  password: string;
}

export interface RemoteCalendar {
  url: string;
  displayName: string;
  /** The collection's version (sync token, else CTag): unchanged means nothing changed. */
  version: string | null;
}

export interface RemoteObject {
  href: string;
  etag: string;
  data: string;
}

export type CalDavErrorCode =
  'calendar_unauthorized' | 'calendar_unreachable' | 'calendar_not_caldav';

export class CalDavError extends Error {
  constructor(readonly code: CalDavErrorCode) {
    super(code);
  }
}

const REQUEST_MS = 15_000;

/** Whether the practice lets coaches use a calendar server in its own network. */
export interface CalDavGuard {
  allowPrivate: boolean;
}

/** Why a call failed, in the terms the connection's state uses; other errors pass unchanged. */
function classify(error: unknown): unknown {
  if (error instanceof CalDavError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/invalid credentials|401|403/i.test(message)) return new CalDavError('calendar_unauthorized');
  if (
    error instanceof TypeError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
  ) {
    return new CalDavError('calendar_unreachable');
  }
  if (/cannot find|not found|404|homeUrl|principal/i.test(message)) {
    return new CalDavError('calendar_not_caldav');
  }
  return error;
}

/** What a conditional write found: done (with the new ETag, if the server tells it) or a changed object. */
export type PutResult = { ok: true; etag: string | null } | { ok: false; status: 412 };
export type DeleteResult = 'deleted' | 'gone' | 'changed';

export interface CalDavSession {
  calendars(): Promise<RemoteCalendar[]>;
  objects(calendarUrl: string): Promise<RemoteObject[]>;
  /**
   * Puts an iCalendar object at `url`: `ifMatch` null creates it only if nothing is there
   * (If-None-Match: *), a string replaces only that version (If-Match), undefined replaces
   * whatever is there. A precondition that fails answers 412, not an error.
   */
  put(url: string, data: string, ifMatch: string | null | undefined): Promise<PutResult>;
  /** Deletes the object at `url` (only that version when `ifMatch` is given). */
  remove(url: string, ifMatch: string | undefined): Promise<DeleteResult>;
  /** Ends the session's kept-alive connections. */
  close(): void;
}

/** A write's answer as an outcome, or the error that makes the job try again. */
function writeFailure(response: Response): Error {
  if (response.status === 401 || response.status === 403) {
    return new CalDavError('calendar_unauthorized');
  }
  return new Error(`calendar_write_failed: ${response.status}`);
}

/** Signs in and discovers the account; throws CalDavError for the causes a coach can fix. */
export async function openCalDav(
  account: CalDavAccount,
  guard: CalDavGuard,
): Promise<CalDavSession> {
  // Every request (sign-in, discovery, reads, writes, redirects) goes through the address guard.
  const guarded = guardedFetch(guard.allowPrivate);
  const timedFetch: typeof fetch = (input, init) =>
    guarded.fetch(input, { ...init, signal: AbortSignal.timeout(REQUEST_MS) });
  const client = new DAVClient({
    serverUrl: account.serverUrl,
    credentials: { username: account.username, password: account.password },
    authMethod: 'Basic',
    defaultAccountType: 'caldav',
    fetch: timedFetch,
  });
  try {
    await client.login();
  } catch (error) {
    guarded.close();
    throw classify(error);
  }
  return {
    close: guarded.close,
    async calendars() {
      try {
        const found = await client.fetchCalendars();
        return found
          .filter((c) => !c.components || c.components.includes('VEVENT'))
          .map((c) => ({
            url: c.url,
            displayName:
              typeof c.displayName === 'string' && c.displayName.trim()
                ? c.displayName.trim().slice(0, 500)
                : decodeURIComponent(c.url.replace(/\/$/, '').split('/').pop() ?? 'Kalender'),
            version: c.syncToken ?? c.ctag ?? null,
          }));
      } catch (error) {
        throw classify(error);
      }
    },
    async objects(calendarUrl) {
      try {
        const found = await client.fetchCalendarObjects({ calendar: { url: calendarUrl } });
        return found
          .filter((o) => typeof o.data === 'string' && o.data.length > 0)
          .map((o) => ({
            href: new URL(o.url, calendarUrl).pathname,
            etag: o.etag ?? '',
            data: o.data as string,
          }));
      } catch (error) {
        throw classify(error);
      }
    },
    async put(url, data, ifMatch) {
      let response: Response;
      try {
        const conditions: Record<string, string> =
          ifMatch === null ? { 'If-None-Match': '*' } : ifMatch ? { 'If-Match': ifMatch } : {};
        response = await client.updateCalendarObject({
          calendarObject: { url, data, etag: undefined },
          headers: conditions,
        });
      } catch (error) {
        throw classify(error);
      }
      if (response.status === 412) return { ok: false, status: 412 };
      if (!response.ok) throw writeFailure(response);
      return { ok: true, etag: response.headers.get('etag') };
    },
    async remove(url, ifMatch) {
      let response: Response;
      try {
        response = await client.deleteCalendarObject({
          calendarObject: { url, etag: ifMatch ?? undefined },
        });
      } catch (error) {
        throw classify(error);
      }
      if (response.status === 404 || response.status === 410) return 'gone';
      if (response.status === 412) return 'changed';
      if (!response.ok) throw writeFailure(response);
      return 'deleted';
    },
  };
}
