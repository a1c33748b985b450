import { describe, expect, it } from 'vitest';
import { createCoachLines, type Range } from '../../server/features/appointments/coach-line';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const hour = (h: number, minutes = 60): Range => ({
  start: h * 3_600_000,
  end: h * 3_600_000 + minutes * 60_000,
});

/** A coach's calendar that the line reads; writes add to it like a committed booking. */
function calendar(taken: Record<string, Range[]> = {}) {
  const reads: Array<{ coachId: string; from: number; to: number }> = [];
  const lines = createCoachLines(async (coachId, from, to) => {
    reads.push({ coachId, from, to });
    await tick();
    return (taken[coachId] ?? []).filter((r) => r.start < to && from < r.end);
  });
  return { lines, reads };
}

const code = (error: unknown) => (error as { code?: string }).code;

describe('the coach line (staff bookings, server/features/appointments/coach-line.ts)', () => {
  it("runs one coach's bookings one after another, in arrival order, and others alongside", async () => {
    const { lines } = calendar();
    const log: string[] = [];
    const book = (coach: string, name: string, at: Range) =>
      lines.book(coach, at, async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
        return name;
      });
    const results = await Promise.all([
      book('a', 'a1', hour(8)),
      book('a', 'a2', hour(10)),
      book('b', 'b1', hour(8)),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2+')).toBeGreaterThan(log.indexOf('a1-'));
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-'));
  });

  it('refuses a taken time with 409 slot_taken without writing, and books the free ones', async () => {
    const taken = { a: [hour(9)] };
    const { lines, reads } = calendar(taken);
    let writes = 0;
    const book = (at: Range) =>
      lines.book('a', at, async () => {
        writes += 1;
        await tick();
        taken.a.push(at);
        return 'booked';
      });
    // 7:00 is being booked while the rush arrives: the rush is served as one batch.
    const first = book(hour(7));
    const settled: string[] = [];
    const rush = [
      book(hour(8)), // free
      book(hour(8.25, 30)), // overlaps 8:00, booked just before it in the same batch
      book(hour(9.25, 30)), // inside the taken 9:00
      book(hour(10)), // free: 9:00–10:00 ends where it starts
    ];
    rush.forEach((p, i) =>
      p.then(
        () => settled.push(`${i}`),
        () => settled.push(`${i}`),
      ),
    );
    const outcomes = await Promise.allSettled(rush);
    await expect(first).resolves.toBe('booked');
    // The taken time is refused before any of the rush's bookings ended; 8:15 only once
    // 8:00, which it lost to, was booked.
    expect(settled).toEqual(['2', '0', '1', '3']);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : code(o.reason)))).toEqual([
      'booked',
      'slot_taken',
      'slot_taken',
      'booked',
    ]);
    expect(writes).toBe(3);
    // One read for 7:00, one for the whole rush, spanning all four.
    expect(reads).toEqual([
      { coachId: 'a', from: hour(7).start, to: hour(7).end },
      { coachId: 'a', from: hour(8).start, to: hour(10).end },
    ]);
  });

  it("reads again for whoever came while a batch was served (another instance's writes)", async () => {
    const taken: Record<string, Range[]> = {};
    const { lines, reads } = calendar(taken);
    const first = lines.book('a', hour(8), async () => {
      // Meanwhile another instance books 12:00, and this process is asked for it.
      taken.a = [hour(12)];
      second = lines.book('a', hour(12), async () => 'double');
      return 'first';
    });
    let second: Promise<string> | undefined;
    await expect(first).resolves.toBe('first');
    await expect(second).rejects.toMatchObject({ code: 'slot_taken' });
    expect(reads).toHaveLength(2);
  });

  it('books a time for the next in line when the booking ahead of it failed', async () => {
    const { lines } = calendar();
    const hold = lines.book('e', hour(7), async () => {
      await tick();
      return 'booked';
    });
    const failing = lines.book('e', hour(8), async () => {
      await tick();
      throw Object.assign(new Error('unknown client'), { code: 'unknown_client' });
    });
    const behind = lines.book('e', hour(8.5), async () => 'booked');
    await expect(hold).resolves.toBe('booked');
    await expect(failing).rejects.toMatchObject({ code: 'unknown_client' });
    await expect(behind).resolves.toBe('booked');
  });

  it('lets the next booking run when one fails, and fails a batch whose read failed', async () => {
    const { lines } = calendar();
    const failing = lines.book('c', hour(8), async () => {
      await tick();
      throw new Error('database down');
    });
    const next = lines.book('c', hour(8), async () => 'booked');
    await expect(failing).rejects.toThrow('database down');
    // The failed write took nothing: the same time is still free for the next one.
    await expect(next).resolves.toBe('booked');

    const broken = createCoachLines(async () => {
      throw new Error('no connection');
    });
    await expect(broken.book('d', hour(8), async () => 'never')).rejects.toThrow('no connection');
    await expect(broken.book('d', hour(9), async () => 'never')).rejects.toThrow('no connection');
  });
});
