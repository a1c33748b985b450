// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { components } from '../../shared/contract/product';
import { billingRulesMachine, movedRules } from '../../src/machines/billing-rules.machine';
import { describeModel, done, failed, startMachine } from '../support/model';

/**
 * Model-based test of `/billing/rules`' machine: load, optimistic reorder with its three
 * outcomes (confirmed, 409 stale_rule_order → old order back and reloaded, other failure → old
 * order back), delete after a question, the preview, and the client whose appointments it
 * offers. Each state is checked in what the page
 * shows (rules in order, the announcement, the question) and in the calls that went out.
 */
type Rule = components['schemas']['BillingRule'];

const rule = (id: string, name: string, position: number): Rule => ({
  id,
  name,
  position,
  version: 1,
  appointmentType: null,
  insurer: null,
  campaign: null,
  clientType: null,
  sponsorPays: null,
  noShow: null,
  cancelledLate: null,
  validFrom: null,
  validTo: null,
  amountCents: 8000,
  description: name,
  vatTreatment: 'standard',
  vatRatePercent: 19,
  vatExemptionReason: null,
  payerKind: 'client',
  active: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';
const D = '00000000-0000-4000-8000-00000000000d';
const RULES = [rule(A, 'Nicht erschienen', 0), rule(B, 'Folgetermin', 1), rule(C, 'Ersttermin', 2)];
const MOVED = movedRules(RULES, B, 0)!;
/** What a reload after the 409 finds: someone added a rule meanwhile. */
const NOW = [...RULES, rule(D, 'Kampagne Nord', 3)];
const APPOINTMENT = '11111111-1111-4111-8111-111111111111';
const PREVIEW: components['schemas']['BillingRulePreview'] = {
  appointmentId: APPOINTMENT,
  appointment: {
    startDate: '2026-03-02T09:00:00.000Z',
    appointmentType: 'followup',
    client: { id: '22222222-2222-4222-8222-222222222222', firstName: 'Erika', lastName: 'Muster' },
  },
  item: {
    amountCents: 9550,
    description: 'Folgetermin',
    vatTreatment: 'exempt',
    vatRatePercent: 0,
    payerKind: 'client',
  },
  occasion: 'completed',
  matchedRuleId: B,
  rules: [
    {
      ruleId: A,
      name: 'Nicht erschienen',
      position: 0,
      outcome: 'not_matched',
      failedCriteria: ['noShow'],
    },
    { ruleId: B, name: 'Folgetermin', position: 1, outcome: 'matched', failedCriteria: [] },
  ],
  validationErrors: [],
};

const CLIENT = { id: '22222222-2222-4222-8222-222222222222', label: 'Erika Muster' };
const OTHER = { id: '33333333-3333-4333-8333-333333333333', label: 'Max Beispiel' };
const person = (id: string, firstName: string, lastName: string) => ({ id, firstName, lastName });
const CLIENT_APPOINTMENTS = [
  {
    id: APPOINTMENT,
    startDate: '2026-03-24T13:30:00Z',
    endDate: '2026-03-24T14:20:00Z',
    appointmentType: 'followup',
    meetingType: 'jitsi',
    meetingCodeCoach: 'c',
    meetingCodeClient: 'k',
    cancelledAt: null,
    createdAt: '2026-03-01T00:00:00Z',
    updatedAt: '2026-03-01T00:00:00Z',
    client: person(CLIENT.id, 'Erika', 'Muster'),
    coach: person('44444444-4444-4444-8444-444444444444', 'Anna', 'Coach'),
    clientId: CLIENT.id,
    coachId: '44444444-4444-4444-8444-444444444444',
    clientName: 'Erika Muster',
    isProvisional: false,
    provisionalUntil: null,
    noShow: false,
    appointmentNumber: 2,
    externalMeetingUrl: null,
  },
] as unknown as components['schemas']['Appointment'][];

const ids = (rules: readonly Rule[]) => rules.map((r) => r.id);
const stale = { status: 409, code: 'stale_rule_order' };

type RunExtra = { deleted: string[] };

describeModel('billing rules machine, model-based', {
  machine: billingRulesMachine,
  plans: [
    {
      events: [
        done('loadRules', RULES),
        failed('loadRules', { code: 'network_error' }),
        { type: 'rules.retry' },
        { type: 'rules.move', id: B, to: 0 },
        done('reorderRules', MOVED),
        failed('reorderRules', stale),
        failed('reorderRules', { status: 500, code: 'internal_error' }),
        done('reloadRules', NOW),
        { type: 'rule.delete', id: C },
        { type: 'delete.confirm' },
        { type: 'delete.abort' },
        { type: 'delete.retry' },
        done('deleteRule', null),
        failed('deleteRule', { status: 404, code: 'not_found' }),
        { type: 'preview.request', appointmentId: APPOINTMENT },
        { type: 'preview.request', appointmentId: 'nicht-eine-id' },
        done('previewRules', PREVIEW),
        failed('previewRules', { status: 409, code: 'appointment_not_billable' }),
        { type: 'preview.clear' },
        { type: 'client.choose', client: CLIENT },
        { type: 'client.clear' },
        done('loadClientAppointments', CLIENT_APPOINTMENTS),
        failed('loadClientAppointments', { code: 'network_error' }),
        { type: 'appointments.retry' },
      ],
      walks: [
        // The 409 path to its end: the reload shows the rules as they are now.
        [
          done('loadRules', RULES),
          { type: 'rules.move', id: B, to: 0 },
          failed('reorderRules', stale),
          done('reloadRules', NOW),
        ],
        // A failure other than 409: the old order, and the move can be tried again.
        [
          done('loadRules', RULES),
          { type: 'rules.move', id: B, to: 0 },
          failed('reorderRules', { status: 500, code: 'internal_error' }),
          { type: 'rules.move', id: B, to: 0 },
          done('reorderRules', MOVED),
        ],
        // Delete confirmed: a toast, then the list loads again.
        [
          done('loadRules', RULES),
          { type: 'rule.delete', id: C },
          { type: 'delete.confirm' },
          done('deleteRule', null),
          done('loadRules', RULES.slice(0, 2)),
        ],
        // A client picked by name, then another: the second one's appointments are asked for;
        // choosing one of the listed appointments previews it.
        [
          { type: 'client.choose', client: CLIENT },
          { type: 'client.choose', client: OTHER },
          done('loadClientAppointments', CLIENT_APPOINTMENTS),
          { type: 'preview.request', appointmentId: CLIENT_APPOINTMENTS[0]!.id },
          done('previewRules', PREVIEW),
        ],
      ],
    },
  ],
  start: () => {
    const deleted: string[] = [];
    const started = startMachine(billingRulesMachine, {
      actions: {
        notifyDeleted: (_: unknown, params: { name: string }) => void deleted.push(params.name),
      },
    });
    return Object.assign(started, { deleted }) as typeof started & RunExtra;
  },
  states: {
    'billingRules.list.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can({ type: 'rules.move', id: B, to: 0 })).toBe(false);
      expect(run.fakes.loadRules!.pending()).toBe(1);
    },
    'billingRules.list.loadFailed': (s) => {
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'rules.retry' })).toBe(true);
    },
    'billingRules.list.ready': (s) => {
      const order = ids(s.context.rules);
      expect(s.context.before).toBeNull();
      expect(s.context.rules.map((r) => r.position)).toEqual(order.map((_, i) => i));
      const a = s.context.announcement;
      if (a?.kind === 'moved') expect(order).toEqual(ids(MOVED));
      if (a?.kind === 'stale') expect(order).toEqual(ids(NOW));
      if (a?.kind === 'moveFailed') {
        expect(order).toEqual(ids(RULES));
        expect(a.name).toBe('Folgetermin');
      }
      // Up/down are offered exactly where a rule can go.
      expect(s.can({ type: 'rules.move', id: order[0]!, to: -1 })).toBe(false);
      expect(s.can({ type: 'rules.move', id: order[0]!, to: 1 })).toBe(true);
      expect(s.can({ type: 'rules.move', id: order.at(-1)!, to: order.length })).toBe(false);
    },
    'billingRules.list.saving': (s, run) => {
      // The new order is on screen before the server answers, and it is what was sent.
      expect(ids(s.context.rules)).toEqual(ids(MOVED));
      expect(ids(s.context.before!)).toEqual(ids(RULES));
      expect(run.fakes.reorderRules!.calls.at(-1)).toEqual({ ids: ids(MOVED) });
      expect(s.context.announcement).toEqual({
        kind: 'moved',
        name: 'Folgetermin',
        position: 1,
        count: 3,
      });
      expect(s.can({ type: 'rules.move', id: A, to: 0 })).toBe(false);
      expect(s.can({ type: 'rule.delete', id: A })).toBe(false);
    },
    'billingRules.list.reloading': (s, run) => {
      // Rolled back at once, told why, and the list asked for again.
      expect(ids(s.context.rules)).toEqual(ids(RULES));
      expect(s.context.announcement).toEqual({ kind: 'stale' });
      expect(run.fakes.loadRules!.pending()).toBe(1);
    },
    'billingRules.list.asking': (s, run) => {
      expect(s.context.deleting?.id).toBe(C);
      expect(s.can({ type: 'delete.confirm' })).toBe(true);
      expect(run.fakes.deleteRule!.calls).toHaveLength(0);
    },
    'billingRules.list.deleting': (s, run) => {
      expect(run.fakes.deleteRule!.calls.at(-1)).toEqual({ id: C });
      expect(s.can({ type: 'delete.abort' })).toBe(false);
    },
    'billingRules.list.deleteFailed': (s) => {
      expect(s.context.deleteError?.code).toBe('not_found');
      expect(s.context.deleting?.id).toBe(C);
      expect(s.can({ type: 'delete.retry' })).toBe(true);
    },
    'billingRules.preview.idle': (s) => {
      expect(s.context.preview).toBeNull();
      expect(s.can({ type: 'preview.clear' })).toBe(false);
    },
    'billingRules.preview.previewing': (_s, run) => {
      expect(run.fakes.previewRules!.calls.at(-1)).toEqual({ appointmentId: APPOINTMENT });
    },
    'billingRules.preview.shown': (s) => {
      expect(s.context.preview).toEqual(PREVIEW);
      expect(s.context.previewError).toBeNull();
    },
    'billingRules.preview.failed': (s) => {
      expect(['invalid_appointment_id', 'appointment_not_billable']).toContain(
        s.context.previewError?.code,
      );
      expect(s.context.preview).toBeNull();
    },
    'billingRules.pick.none': (s) => {
      expect(s.context.client).toBeNull();
      expect(s.context.appointments).toEqual([]);
    },
    'billingRules.pick.loading': (s, run) => {
      // Each choice asks for the appointments of the client chosen last (an earlier question is
      // given up), and shows none meanwhile.
      const loads = run.fakes.loadClientAppointments!;
      expect(loads.calls.at(-1)).toEqual({ clientId: s.context.client!.id });
      expect(loads.latest().signal.aborted).toBe(false);
      expect(loads.all.slice(0, -1).every((c) => c.settled || c.signal.aborted)).toBe(true);
      expect(s.context.appointments).toEqual([]);
    },
    'billingRules.pick.ready': (s) => {
      expect(s.context.appointments).toEqual(CLIENT_APPOINTMENTS);
      expect(s.context.appointmentsError).toBeNull();
    },
    'billingRules.pick.failed': (s) => {
      expect(s.context.appointmentsError?.code).toBe('network_error');
      expect(s.can({ type: 'appointments.retry' })).toBe(true);
    },
  },
  finish: (run, path) => {
    const deletions = path.steps.filter(
      (step) => step.event.type === 'xstate.done.actor.deleteRule',
    ).length;
    expect((run as unknown as RunExtra).deleted).toEqual(Array(deletions).fill('Ersttermin'));
  },
});

describe('billing rules machine, opened for an appointment', () => {
  it('previews the appointment named in the address at once', () => {
    const { actor, fakes } = startMachine(billingRulesMachine, {
      input: { appointmentId: APPOINTMENT },
    });
    expect(actor.getSnapshot().matches({ preview: 'previewing' })).toBe(true);
    expect(fakes.previewRules!.calls).toEqual([{ appointmentId: APPOINTMENT }]);
    expect(actor.getSnapshot().context.openedForAppointment).toBe(true);
  });

  it('shows the German error for an address id that is no appointment id, and asks nothing', () => {
    const { actor, fakes } = startMachine(billingRulesMachine, {
      input: { appointmentId: 'kein-termin' },
    });
    expect(actor.getSnapshot().hasTag('previewError')).toBe(true);
    expect(actor.getSnapshot().context.previewError).toEqual({ code: 'invalid_appointment_id' });
    expect(fakes.previewRules!.calls).toEqual([]);
    expect(actor.getSnapshot().context.openedForAppointment).toBe(true);
  });

  it('without one, waits for the staff to type an id', () => {
    const { actor } = startMachine(billingRulesMachine, { input: {} });
    expect(actor.getSnapshot().matches({ preview: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.openedForAppointment).toBe(false);
    // A preview asked for later leaves it as the address made it.
    actor.send({ type: 'preview.request', appointmentId: 'kein-termin' });
    expect(actor.getSnapshot().hasTag('previewError')).toBe(true);
    expect(actor.getSnapshot().context.openedForAppointment).toBe(false);
  });
});
