import { describe, expect, it } from 'vitest';
import { joiningWindow } from '../../server/features/meetings/meetings';
import { DEFAULT_JOIN_MINUTES, joiningWindowMs } from '../../shared/meeting-window';
import { showsJoinButton } from '../../src/machines/coach-meeting.machine';

const appointment = { startDate: '2026-10-26T09:00:00.000Z', endDate: '2026-10-26T09:50:00.000Z' };

describe('the joining window, one rule for the room and the button', () => {
  it("is the server's window when the server keeps its default minutes", () => {
    const server = joiningWindow(
      {
        MEETING_JOIN_EARLY_MINUTES: DEFAULT_JOIN_MINUTES.early,
        MEETING_JOIN_LATE_MINUTES: DEFAULT_JOIN_MINUTES.late,
      },
      appointment,
    );
    const shared = joiningWindowMs(appointment);
    expect(server.from.epochMilliseconds).toBe(shared.fromMs);
    expect(server.until.epochMilliseconds).toBe(shared.untilMs);
    expect(new Date(shared.fromMs).toISOString()).toBe('2026-10-26T08:50:00.000Z');
    expect(new Date(shared.untilMs).toISOString()).toBe('2026-10-26T10:20:00.000Z');
  });

  it('offers the join button at both ends of the window and not a millisecond beyond', () => {
    const { fromMs, untilMs } = joiningWindowMs(appointment);
    expect(showsJoinButton(appointment, fromMs - 1)).toBe(false);
    expect(showsJoinButton(appointment, fromMs)).toBe(true);
    expect(showsJoinButton(appointment, untilMs)).toBe(true);
    expect(showsJoinButton(appointment, untilMs + 1)).toBe(false);
  });

  it('follows configured minutes on the server', () => {
    const server = joiningWindow(
      { MEETING_JOIN_EARLY_MINUTES: 5, MEETING_JOIN_LATE_MINUTES: 0 },
      appointment,
    );
    expect(server.from.toString()).toBe('2026-10-26T08:55:00Z');
    expect(server.until.toString()).toBe('2026-10-26T09:50:00Z');
  });
});
