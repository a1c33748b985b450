import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type EventObject } from 'xstate';
import { clientMeetingMachine, secondsUntilOpen } from '../../src/machines/client-meeting.machine';
import {
  coachMeetingMachine,
  coachMeetingStartMachine,
  forDateOf,
  showsJoinButton,
} from '../../src/machines/coach-meeting.machine';
import type { MeetingInfo, MeetingToken, RoomInput } from '../../src/machines/meeting/shared';
import { fake, flush } from '../support/model';
import { apiError } from './scheduling-fakes';

const MIN = 60_000;
const START = Date.parse('2026-10-25T09:00:00Z');

function info(overrides: Partial<MeetingInfo> = {}): MeetingInfo {
  return {
    appointmentId: '55555555-5555-4555-8555-555555555555',
    startDate: new Date(START).toISOString(),
    endDate: new Date(START + 50 * MIN).toISOString(),
    appointmentType: 'followup',
    meetingType: 'jitsi',
    coachName: 'Clara Coach',
    cancelled: false,
    externalMeetingUrl: null,
    joinableFrom: new Date(START - 10 * MIN).toISOString(),
    joinableUntil: new Date(START + 80 * MIN).toISOString(),
    ...overrides,
  };
}

const token: MeetingToken = {
  domain: 'meet.example.test',
  scriptUrl: 'https://meet.example.test/external_api.js',
  roomName: 'sprechstunde-hidden',
  jwt: 'header.payload.signature',
  displayName: 'Klara M.',
  startDate: new Date(START).toISOString(),
  endDate: new Date(START + 50 * MIN).toISOString(),
  moderator: false,
};

/** A simulated clock at `at` (ms since the epoch) that drives both delays and `now`. */
function clockAt(at: number) {
  const clock = new SimulatedClock();
  clock.set(at);
  return clock;
}

describe('client meeting machine with a simulated clock', () => {
  it('lets a too-early client wait with a countdown and in when the window opens', async () => {
    const clock = clockAt(START - 25 * MIN);
    const lookup = fake<{ code: string }, MeetingInfo>();
    const fetchToken = fake<{ code: string }, MeetingToken>();
    const rooms: RoomInput[] = [];
    const actor = createActor(
      clientMeetingMachine.provide({
        actors: {
          lookupMeeting: lookup.logic,
          fetchToken: fetchToken.logic,
          videoRoom: fromCallback<EventObject, RoomInput>(({ input }) => {
            rooms.push(input);
          }) as never,
        },
      }),
      { input: { code: 'abcd-efgh-jkmn', now: () => clock.now() }, clock },
    ).start();
    expect(actor.getSnapshot().value).toBe('lookingUp');
    expect(lookup.calls).toEqual([{ code: 'abcd-efgh-jkmn' }]);
    lookup.resolve(info());
    await flush();

    expect(actor.getSnapshot().value).toBe('waiting');
    expect(secondsUntilOpen(actor.getSnapshot().context)).toBe(15 * 60);
    clock.increment(1000);
    expect(secondsUntilOpen(actor.getSnapshot().context)).toBe(15 * 60 - 1);
    clock.increment(14 * MIN);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(secondsUntilOpen(actor.getSnapshot().context)).toBe(59);
    expect(fetchToken.calls).toHaveLength(0);

    clock.increment(58_999);
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(1);
    // The window opened: the token is asked for at once, not a tick later.
    expect(actor.getSnapshot().value).toBe('joining');
    expect(fetchToken.calls).toEqual([{ code: 'abcd-efgh-jkmn' }]);

    fetchToken.resolve(token);
    await flush();
    expect(actor.getSnapshot().matches({ room: 'connecting' })).toBe(true);
    expect(rooms).toEqual([{ token, containerId: 'meeting-room', lang: 'de' }]);
    actor.send({ type: 'room.joined' });
    expect(actor.getSnapshot().matches({ room: 'inMeeting' })).toBe(true);
    actor.send({ type: 'room.left' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('asks for a code first and says so when none is typed', () => {
    const shown: string[] = [];
    const actor = createActor(
      clientMeetingMachine.provide({
        actions: { showCode: (_, p) => shown.push(p.code) },
        actors: { lookupMeeting: fake<{ code: string }, MeetingInfo>().logic },
      }),
      { input: {} },
    ).start();
    expect(actor.getSnapshot().value).toBe('enteringCode');
    actor.send({ type: 'code.change', value: '   ' });
    actor.send({ type: 'code.submit' });
    expect(actor.getSnapshot().context.error).toEqual({ code: 'no_meeting_code' });
    actor.send({ type: 'code.change', value: ' abcd-efgh-jkmn ' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'code.submit' });
    expect(actor.getSnapshot().value).toBe('lookingUp');
    expect(shown).toEqual(['abcd-efgh-jkmn']);
  });

  it('turns an unknown code into invalid_meeting_code and other failures into a retry', async () => {
    const lookup = fake<{ code: string }, MeetingInfo>();
    const actor = createActor(
      clientMeetingMachine.provide({ actors: { lookupMeeting: lookup.logic } }),
      {
        input: { code: 'zzzz' },
      },
    ).start();
    lookup.reject(apiError(404, 'not_found'));
    await flush();
    expect(actor.getSnapshot().value).toBe('invalidCode');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'invalid_meeting_code' });

    const again = createActor(
      clientMeetingMachine.provide({ actors: { lookupMeeting: lookup.logic } }),
      {
        input: { code: 'abcd-efgh-jkmn' },
      },
    ).start();
    lookup.reject(apiError(429, 'rate_limited'));
    await flush();
    expect(again.getSnapshot().value).toBe('failed');
    expect(again.getSnapshot().context.error).toEqual({ code: 'rate_limited' });
    again.send({ type: 'meeting.retry' });
    expect(again.getSnapshot().value).toBe('lookingUp');
  });
});

describe('coach meeting machines', () => {
  it('shows the join button exactly while the server opens the room: start − 10 min to end + 30 min', () => {
    const a = {
      startDate: new Date(START).toISOString(),
      endDate: new Date(START + 50 * MIN).toISOString(),
    };
    expect(showsJoinButton(a, START - 10 * MIN - 1)).toBe(false);
    expect(showsJoinButton(a, START - 10 * MIN)).toBe(true);
    // Past the old page-only limit (start + 30 min), still inside the room's window.
    expect(showsJoinButton(a, START + 45 * MIN)).toBe(true);
    expect(showsJoinButton(a, START + 80 * MIN)).toBe(true);
    expect(showsJoinButton(a, START + 80 * MIN + 1)).toBe(false);
    expect(showsJoinButton({ ...a, cancelledAt: new Date(START).toISOString() }, START)).toBe(
      false,
    );
  });

  it('loads the first two upcoming appointments with a date-only forDate', async () => {
    const clock = clockAt(START);
    const upcoming = fake<{ forDate: string }, Array<{ id: string }>>();
    const actor = createActor(
      coachMeetingStartMachine.provide({ actors: { loadUpcoming: upcoming.logic as never } }),
      { input: { now: () => clock.now() }, clock },
    ).start();
    expect(upcoming.calls).toEqual([{ forDate: '2026-10-25' }]);
    expect(forDateOf(START)).toBe('2026-10-25');
    upcoming.resolve([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    await flush();
    expect(actor.getSnapshot().context.upcoming.map((x) => x.id)).toEqual(['a', 'b']);
    // Refreshed every minute, so join buttons appear on time.
    clock.increment(60_000);
    expect(upcoming.calls).toHaveLength(2);
  });

  it('meeting-code form: no code, then an unknown code, then a good one', async () => {
    const lookup = fake<{ code: string }, never>();
    const opened: string[] = [];
    const actor = createActor(
      coachMeetingStartMachine.provide({
        actors: {
          loadUpcoming: fake<{ forDate: string }, never>().logic as never,
          lookupCoachMeeting: lookup.logic as never,
        },
        actions: { openMeeting: (_, p) => opened.push(p.code) },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'code.submit' });
    expect(actor.getSnapshot().context.error).toEqual({ code: 'no_meeting_code' });
    actor.send({ type: 'code.change', value: 'zzzz-zzzz-zzzz' });
    actor.send({ type: 'code.submit' });
    lookup.reject(apiError(404, 'not_found'));
    await flush();
    expect(actor.getSnapshot().context.error).toEqual({ code: 'invalid_meeting_code' });
    actor.send({ type: 'code.submit' });
    lookup.reject(Object.assign(new Error('offline'), { code: 'network_error' }));
    await flush();
    expect(actor.getSnapshot().context.error).toEqual({ code: 'invalid_meeting_code' });
    actor.send({ type: 'code.change', value: 'abcd-efgh-jkmn' });
    actor.send({ type: 'code.submit' });
    lookup.resolve(undefined as never);
    await flush();
    expect(opened).toEqual(['abcd-efgh-jkmn']);
  });

  it('the coach’s join page waits for the window, then joins as moderator and leads to finished', async () => {
    const clock = clockAt(START - 12 * MIN);
    const lookup = fake<{ code: string }, never>();
    const fetchToken = fake<{ code: string }, MeetingToken>();
    let finished = 0;
    const actor = createActor(
      coachMeetingMachine.provide({
        actors: {
          lookupCoachMeeting: lookup.logic as never,
          fetchCoachToken: fetchToken.logic,
          videoRoom: fromCallback(() => undefined),
        },
        actions: { showFinished: () => finished++ },
      }),
      { input: { code: 'coach-code', mode: 'join', now: () => clock.now() }, clock },
    ).start();
    const i = info();
    lookup.resolve({
      appointment: { cancelledAt: null, meetingType: 'jitsi' },
      joinableFrom: i.joinableFrom,
      joinableUntil: i.joinableUntil,
    } as never);
    await flush();
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(2 * MIN);
    expect(actor.getSnapshot().value).toBe('joining');
    fetchToken.resolve({ ...token, moderator: true });
    await flush();
    actor.send({ type: 'room.joined' });
    actor.send({ type: 'room.left' });
    expect(actor.getSnapshot().value).toBe('left');
    expect(finished).toBe(1);
  });
});
