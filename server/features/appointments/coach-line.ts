import { slotTaken } from './booking';

/** A time range in epoch milliseconds, half-open: [start, end). */
export interface Range {
  start: number;
  end: number;
}

/** The live (not cancelled) appointments of a coach that overlap [from, to). */
export type TakenReader = (coachId: string, from: number, to: number) => Promise<Range[]>;

interface Waiting {
  range: Range;
  write: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const overlaps = (a: Range, b: Range) => a.start < b.end && b.start < a.end;

/**
 * This process's bookings for one coach, one after another. Whoever waits when the line moves
 * on is served as one batch, with one read of what is taken in the batch's span:
 * - a time taken is refused at once with 409 slot_taken, without a transaction;
 * - of the others, in arrival order, the first for a time is booked; whoever overlaps it
 *   waits for that booking: refused when it succeeded, back in line when it failed.
 * Under a rush for a few slots the losers cost no query and wait for nobody's transaction
 * but the one they lost to (bench booking.race, issue #5).
 *
 * Only a shortcut: `write` still locks the coach's calendar and checks again inside its
 * transaction, and the exclusion constraint stays the guard across instances. A time another
 * instance freed while a batch runs is refused as if asked a moment earlier.
 */
export function createCoachLines(readTaken: TakenReader) {
  const lines = new Map<string, Waiting[]>();

  async function serve(coachId: string, line: Waiting[]) {
    for (let batch = line.splice(0); batch.length > 0; batch = line.splice(0)) {
      let taken: Range[];
      try {
        const from = Math.min(...batch.map((w) => w.range.start));
        const to = Math.max(...batch.map((w) => w.range.end));
        taken = await readTaken(coachId, from, to);
      } catch (error) {
        for (const w of batch) w.reject(error);
        continue;
      }
      const firsts: Array<{ first: Waiting; behind: Waiting[] }> = [];
      for (const w of batch) {
        if (taken.some((t) => overlaps(t, w.range))) w.reject(slotTaken());
        else {
          const ahead = firsts.find((f) => overlaps(f.first.range, w.range));
          if (ahead) ahead.behind.push(w);
          else firsts.push({ first: w, behind: [] });
        }
      }
      for (const { first, behind } of firsts) {
        try {
          first.resolve(await first.write());
          for (const w of behind) w.reject(slotTaken());
        } catch (error) {
          first.reject(error);
          line.unshift(...behind);
        }
      }
    }
    lines.delete(coachId);
  }

  return {
    /** Runs `write` (the booking's transaction) in the coach's line, unless `range` is taken. */
    book<T>(coachId: string, range: Range, write: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const waiting: Waiting = {
          range,
          write,
          resolve: resolve as (value: unknown) => void,
          reject,
        };
        const line = lines.get(coachId);
        if (line) {
          line.push(waiting);
          return;
        }
        const fresh = [waiting];
        lines.set(coachId, fresh);
        void serve(coachId, fresh);
      });
    },
  };
}
