import { describe, expect, it } from 'vitest';
import { inCoachQueue } from '../../server/features/appointments/booking';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('inCoachQueue', () => {
  it('runs one coach’s writes one after another, in arrival order, and others alongside', async () => {
    const log: string[] = [];
    const write = (coach: string, name: string) =>
      inCoachQueue(coach, async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
        return name;
      });
    const results = await Promise.all([write('a', 'a1'), write('a', 'a2'), write('b', 'b1')]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    // a2 starts only after a1 ended; b1 does not wait for a1.
    expect(log.indexOf('a2+')).toBeGreaterThan(log.indexOf('a1-'));
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-'));
  });

  it('lets the next write run when one fails', async () => {
    const failing = inCoachQueue('c', async () => {
      await tick();
      throw new Error('slot_taken');
    });
    const next = inCoachQueue('c', async () => 'booked');
    await expect(failing).rejects.toThrow('slot_taken');
    await expect(next).resolves.toBe('booked');
  });
});
