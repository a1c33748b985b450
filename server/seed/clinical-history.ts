import { randomUUID } from 'node:crypto';
import { Temporal } from '@js-temporal/polyfill';
import { canonicalHash } from '../canonical-json';
import type { Tx } from '../db/client';
import { appointmentSummaries, events, patientCards, type DocumentType } from '../db/schema/index';
import {
  patientCardBlockers,
  signedPayload,
  summaryBlockers,
  type PatientCardContent,
  type SummaryContent,
} from '../features/clinical/index';
import {
  ASSESSMENT,
  DEFAULT_REASON,
  GOALS,
  HOMEWORK,
  LIFESTYLE,
  NEXT_STEPS,
  OBJECTIVE,
  PLAN,
  REASONS,
  SUBJECTIVE,
} from './clinical-texts';
import { insertInChunks } from './db-steps';
import { picked, pickFrom, stableInt } from './pick';
import type { DemoData } from './types';

type Appointment = DemoData['appointments'][number];
type Client = DemoData['clients'][number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Signed documents the reviewer has not completed yet: a short list on /review. */
const AWAITING_REVIEW = { summary: 4, patient_card: 2 } as const;

/** One clinical document of the demo: written (a draft) and maybe signed and completed. */
export interface DocumentPlan {
  type: DocumentType;
  appointment: Appointment;
  client: Client;
  written: number;
  /** Signed by the appointment's coach; null: still a draft. */
  signedAt: number | null;
  /** Completed by the reviewer; null: waits for review (or not signed). */
  completedAt: number | null;
}

const ms = (at: string | Date | null | undefined) => (at ? new Date(at).getTime() : null);

/** An appointment that took place: not cancelled, not missed, not provisional, over. */
const held = (a: Appointment, nowMs: number) =>
  !a.cancelledAt && !a.noShow && !a.isProvisional && ms(a.endDate)! <= nowMs - HOUR;

/** The next weekday at 17:00 Berlin after `at`: the reviewer's round. */
function reviewRound(at: number): number {
  let day = Temporal.Instant.fromEpochMilliseconds(at + HOUR)
    .toZonedDateTimeISO('Europe/Berlin')
    .with({ hour: 17, minute: 0, second: 0, millisecond: 0, microsecond: 0, nanosecond: 0 });
  if (day.epochMilliseconds < at + HOUR) day = day.add({ days: 1 });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  return day.epochMilliseconds;
}

/**
 * Which documents the demo holds, and when: coaches write a summary of most held appointments
 * within two days and sign it, and a patient card at a client's first held appointment; a few
 * are overdue (none yet), the newest are drafts or missing. The reviewer completes signed
 * documents on weekdays at 17:00, except the few signed last, which wait on /review.
 */
export function planDocuments(data: DemoData, now: Date): DocumentPlan[] {
  const nowMs = now.getTime();
  const clients = new Map(data.clients.map((c) => [c.id!, c]));
  const plans: DocumentPlan[] = [];
  const plan = (type: DocumentType, appointment: Appointment, delayHours: number) => {
    const id = appointment.id!;
    // A few documents are overdue: the open work the clinical lists show.
    if (picked(id, type === 'summary' ? 6 : 10, 1)) return;
    const written = ms(appointment.endDate)! + delayHours * HOUR + stableInt(id, 50, 2) * MINUTE;
    if (written > nowMs - 10 * MINUTE) return;
    const signing = written + (10 + stableInt(id, 40, 3)) * MINUTE;
    // The newest ones are still drafts for a while; some are never left as drafts.
    const signedAt = signing <= nowMs - 5 * MINUTE && !picked(id, 3, 4) ? signing : null;
    plans.push({
      type,
      appointment,
      client: clients.get(appointment.clientId)!,
      written,
      signedAt,
      completedAt: null,
    });
  };

  const firstHeld = new Map<string, Appointment>();
  for (const a of data.appointments) {
    if (!held(a, nowMs)) continue;
    plan('summary', a, 1 + stableInt(a.id!, 40, 0));
    const first = firstHeld.get(a.clientId);
    if (!first || a.startDate < first.startDate) firstHeld.set(a.clientId, a);
  }
  for (const a of firstHeld.values()) plan('patient_card', a, 2 + stableInt(a.id!, 20, 5));

  for (const type of ['summary', 'patient_card'] as const) {
    const signed = plans
      .filter((p) => p.type === type && p.signedAt !== null)
      .sort(
        (x, y) => x.signedAt! - y.signedAt! || x.appointment.id!.localeCompare(y.appointment.id!),
      );
    for (const p of signed.slice(0, Math.max(0, signed.length - AWAITING_REVIEW[type]))) {
      // A round after now has not happened: the reviewer's latest one was a few minutes ago.
      p.completedAt = Math.min(reviewRound(p.signedAt!), nowMs - 2 * MINUTE);
      if (p.completedAt <= p.signedAt!) p.completedAt = p.signedAt! + MINUTE;
    }
  }
  return plans;
}

/** A SOAP summary in German; a draft has the first two sections only. */
function summaryContent(a: Appointment, complete: boolean): SummaryContent {
  const id = a.id!;
  const sections = {
    subjective: pickFrom(SUBJECTIVE, id, 0),
    objective: pickFrom(OBJECTIVE, id, 1),
    ...(complete ? { assessment: pickFrom(ASSESSMENT, id, 2), plan: pickFrom(PLAN, id, 3) } : {}),
  };
  return {
    format: 'SOAP',
    riskFlag: false,
    sections,
    ...(complete
      ? { homework: pickFrom(HOMEWORK, id, 4), nextSteps: pickFrom(NEXT_STEPS, id, 5) }
      : {}),
    durationMin: Math.round((ms(a.endDate)! - ms(a.startDate)!) / MINUTE),
  };
}

/** The intake record from the client's data; a draft still lacks the consent. */
function patientCardContent(c: Client, complete: boolean): PatientCardContent {
  const id = c.id!;
  const goals = [pickFrom(GOALS, id, 0), pickFrom(GOALS, id, 3)];
  return {
    reason: (c.diagnosis && REASONS[c.diagnosis]) || DEFAULT_REASON,
    goals: goals
      .filter((g, i) => goals.findIndex((o) => o.text === g.text) === i)
      .map((g) => ({ ...g })),
    diagnoses: c.diagnosis
      ? [{ text: c.diagnosis, ...(c.initialDiagnosis ? { since: c.initialDiagnosis } : {}) }]
      : [],
    ...(c.mentalStressIndicator == null ? {} : { mentalStressIndicator: c.mentalStressIndicator }),
    lifestyle: {
      sleep: pickFrom(LIFESTYLE.sleep, id, 1),
      activity: pickFrom(LIFESTYLE.activity, id, 2),
      nutrition: pickFrom(LIFESTYLE.nutrition, id, 4),
      substances: pickFrom(LIFESTYLE.substances, id, 5),
    },
    consents: {
      processing: complete ? new Date(c.createdAt!).toISOString() : null,
      research: c.wantsToProvideRecordingsForResearch === true,
      recordings: c.wantsToProvideRecordingsForResearch === true,
    },
  };
}

const BLOCKERS: Record<DocumentType, (content: Record<string, unknown>) => string[]> = {
  summary: (content) => summaryBlockers(content as SummaryContent),
  patient_card: (content) => patientCardBlockers(content as PatientCardContent),
};

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * Writes the planned documents in one insert per kind: drafts as the editor saves them, signed
 * ones with the signature the editor's signing makes (the feature's own payload and hash over
 * id, signer, time and content, so they verify like any signed document), completed ones with
 * the reviewer and time. One row at a time through the editor's update would cost a statement
 * and its open-work trigger per document. Each signed summary is a `summary.signed` event at
 * its signing time, as the app records it.
 */
export async function writeDocuments(
  tx: Tx,
  data: DemoData,
  plans: DocumentPlan[],
): Promise<{ signed: number; drafts: number; completed: number }> {
  const userOfCoach = new Map(data.users.filter((u) => u.coachId).map((u) => [u.coachId!, u]));
  const reviewer = data.users.find((u) => u.role === 'ADMIN')!;
  const tables = { summary: appointmentSummaries, patient_card: patientCards } as const;
  const signedEvents: (typeof events.$inferInsert)[] = [];
  let signed = 0;
  let completed = 0;

  for (const type of ['summary', 'patient_card'] as const) {
    const rows = plans
      .filter((p) => p.type === type)
      .map((p) => {
        const id = randomUUID();
        const complete = p.signedAt !== null;
        const content = (
          type === 'summary'
            ? summaryContent(p.appointment, complete)
            : patientCardContent(p.client, complete)
        ) as Record<string, unknown>;
        const author = userOfCoach.get(p.appointment.coachId)?.id ?? null;
        const signature =
          p.signedAt === null
            ? null
            : { id, signedById: author, signedAt: iso(p.signedAt), content };
        if (signature) {
          signed++;
          if (type === 'summary') {
            signedEvents.push({
              type: 'summary.signed',
              entityType: 'appointment_summary',
              entityId: id,
              actorUserId: author,
              appointmentId: p.appointment.id!,
              clientId: p.appointment.clientId,
              coachId: p.appointment.coachId,
              source: 'business',
              important: true,
              occurredAt: signature.signedAt!,
            });
          }
        }
        if (p.completedAt !== null) completed++;
        return {
          id,
          appointmentId: p.appointment.id!,
          clientId: p.appointment.clientId,
          coachId: p.appointment.coachId,
          status:
            p.completedAt !== null
              ? ('completed' as const)
              : signature
                ? ('sent' as const)
                : ('new' as const),
          content,
          // Saved once as a draft, then signed (each write counts a version).
          version: signature ? 2 : 1,
          blockerCodes: BLOCKERS[type](content),
          signedById: signature?.signedById ?? null,
          signedAt: signature?.signedAt ?? null,
          contentHash: signature ? canonicalHash(signedPayload(type, signature)) : null,
          completedAt: iso(p.completedAt),
          completedById: p.completedAt !== null ? reviewer.id! : null,
          authorId: author,
          createdAt: iso(p.written)!,
          updatedAt: iso(p.completedAt ?? p.signedAt ?? p.written)!,
        };
      });
    if (rows.length) await insertInChunks(tx, tables[type] as typeof patientCards, rows);
  }
  await insertInChunks(tx, events, signedEvents);
  return { signed, drafts: plans.length - signed, completed };
}
