/**
 * Computed free-slot calendars, kept per process and checked against the database on every
 * request: a calendar is reused while its coaches' fingerprint (ids, names and
 * `schedule_version`, which triggers raise in the same transaction as any appointment or
 * availability change) is what it was when the calendar was computed. Correct across several
 * server instances, since the check reads the database, and one indexed read instead of
 * expanding 50 coaches' availability and appointments on every request.
 *
 * The fingerprint is read before the calendar is computed: a change committed in between
 * makes the stored fingerprint older than the data, which only costs a recomputation.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Calendar, Slot } from './slots';
import { rowsOf } from '../../db/raw-rows';

const MAX_ENTRIES = 64;

interface Entry {
  fingerprint: string;
  /** Every slot of the window, before the notice cut (which depends on the clock). */
  slots: Slot[];
  /** The answer as sent per form (full, compact), for the latest cut: [first slot kept, body]. */
  bodies: Map<string, [number, string]>;
}

export interface SlotKey {
  calendar: Calendar;
  from: number;
  to: number;
  durationMinutes: number;
  stepMinutes: number;
  /** HOLIDAY_STATE: its public holidays offer no slot. */
  holidayState: string;
}

const keyOf = (k: SlotKey) =>
  `${k.calendar.kind === 'coach' ? k.calendar.coachId : k.calendar.kind}|${k.from}|${k.to}|${k.durationMinutes}|${k.stepMinutes}|${k.holidayState}`;

/** What the calendar's slots depend on in the coaches table, as one short string. */
async function fingerprint(db: Db | Tx, calendar: Calendar): Promise<string> {
  const filter =
    calendar.kind === 'coach'
      ? sql`id = ${calendar.coachId}::uuid`
      : calendar.kind === 'initial-meetings'
        ? sql`takes_initial_appointments`
        : sql`true`;
  const result = await db.execute<{ f: string | null }>(sql`
    SELECT md5(string_agg(id::text || ':' || schedule_version || ':' || first_name || ':' || last_name,
                          '|' ORDER BY id)) AS f
      FROM coaches WHERE active AND ${filter}`);
  return rowsOf<{ f: string | null }>(result)[0]?.f ?? '';
}

/** First index whose start is at or after `notBefore` (slots are in start order). */
function firstFrom(slots: readonly Slot[], notBefore: number) {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid]!.start < notBefore) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class SlotCache {
  private readonly entries = new Map<string, Entry>();

  /**
   * The serialised answer for `key`, slots before `notBefore` left out. `compute` lists every
   * slot of the window (no notice cut); `serialise` turns the kept slots into the body of
   * `form` (the forms share one computation).
   */
  async body(
    db: Db | Tx,
    key: SlotKey,
    notBefore: number,
    compute: () => Promise<Slot[]>,
    serialise: (slots: Slot[]) => string,
    form = 'full',
  ): Promise<string> {
    const id = keyOf(key);
    const current = await fingerprint(db, key.calendar);
    let entry = this.entries.get(id);
    if (entry?.fingerprint !== current) {
      entry = { fingerprint: current, slots: await compute(), bodies: new Map() };
    }
    // Re-inserting keeps the map in least-recently-used order.
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (this.entries.size > MAX_ENTRIES) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    const first = firstFrom(entry.slots, notBefore);
    let body = entry.bodies.get(form);
    if (body?.[0] !== first) {
      body = [first, serialise(entry.slots.slice(first))];
      entry.bodies.set(form, body);
    }
    return body[1];
  }
}

const caches = new WeakMap<object, SlotCache>();

/** One cache per database handle (an app instance; tests build several). */
export function slotCacheFor(db: Db): SlotCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new SlotCache();
    caches.set(db, cache);
  }
  return cache;
}
