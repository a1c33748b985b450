import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  appointments,
  appointmentSummaries,
  clients,
  clinicalAccessLog,
  clinicalAmendments,
  patientCards,
  users,
  type DocumentType,
} from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { defineHandlers } from '../../http/handler';
import { notFound } from '../../http/problem';
import { a4Pdf, PAGE_LEFT } from '../../pdf';
import { toDocument, type DocRow } from './documents';

type Doc = Awaited<ReturnType<typeof toDocument>>;

const berlin = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  dateStyle: 'medium',
  timeStyle: 'short',
});
const when = (iso: string | null | undefined) => (iso ? berlin.format(new Date(iso)) : '–');

const STATUS: Record<Doc['status'], string> = {
  new: 'Entwurf (nicht unterschrieben)',
  sent: 'Unterschrieben',
  completed: 'Unterschrieben und geprüft',
  canceled: 'Verworfen',
};

/** German labels of the content fields (SummaryContent, PatientCardContent). */
const LABELS: Record<string, string> = {
  format: 'Vorlage',
  sections: 'Abschnitte',
  subjective: 'Subjektiv',
  objective: 'Objektiv',
  data: 'Daten',
  assessment: 'Einschätzung',
  plan: 'Plan',
  goalProgress: 'Fortschritt bei den Zielen',
  homework: 'Aufgaben bis zum nächsten Termin',
  nextSteps: 'Nächste Schritte',
  riskFlag: 'Risiko markiert',
  riskNote: 'Hinweis zum Risiko',
  durationMin: 'Dauer (Minuten)',
  reason: 'Anlass der Begleitung',
  goals: 'Ziele',
  text: 'Text',
  horizon: 'Zeitraum',
  history: 'Vorgeschichte',
  currentComplaints: 'Aktuelle Beschwerden',
  diagnoses: 'Diagnosen',
  code: 'ICD-10',
  since: 'Seit',
  medications: 'Medikamente',
  mentalStressIndicator: 'Belastung (0–10)',
  lifestyle: 'Lebensstil',
  sleep: 'Schlaf',
  activity: 'Bewegung',
  nutrition: 'Ernährung',
  substances: 'Genussmittel',
  consents: 'Einwilligungen',
  processing: 'Verarbeitung von Gesundheitsdaten',
  research: 'Forschung',
  recordings: 'Aufzeichnungen',
};

const valueText = (value: unknown): string =>
  typeof value === 'boolean' ? (value ? 'ja' : 'nein') : value === null ? '–' : String(value);

/** The content as labelled lines, nested objects and lists indented. */
function contentLines(value: unknown, depth = 0): Array<{ depth: number; text: string }> {
  const lines: Array<{ depth: number; text: string }> = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (item && typeof item === 'object') {
        lines.push({ depth, text: `${i + 1}.` }, ...contentLines(item, depth + 1));
      } else lines.push({ depth, text: `${i + 1}. ${valueText(item)}` });
    });
    return lines;
  }
  for (const [key, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    if (v === undefined || v === '') continue;
    const label = LABELS[key] ?? key;
    if (v && typeof v === 'object') {
      lines.push({ depth, text: `${label}:` }, ...contentLines(v, depth + 1));
    } else {
      const text =
        key === 'processing' && typeof v === 'string' ? `erteilt am ${when(v)}` : valueText(v);
      lines.push({ depth, text: `${label}: ${text}` });
    }
  }
  return lines;
}

interface ExportDoc {
  type: DocumentType;
  row: DocRow;
  appointmentStart: string | null;
}

/**
 * A client's copy of their record (GDPR Art. 15, § 630g BGB): the patient card and every
 * summary with amendments, signature blocks and hashes, as one PDF; also after erasure.
 * Every document in it is recorded in the access log. 404 when the client has none.
 */
export async function exportClientDocuments(
  db: Db,
  principal: Principal,
  clientId: string,
  now: Date,
) {
  const [cards, summaries, [client]] = await Promise.all([
    db
      .select({ row: patientCards, start: appointments.startDate })
      .from(patientCards)
      .leftJoin(appointments, eq(appointments.id, patientCards.appointmentId))
      .where(eq(patientCards.clientId, clientId))
      .orderBy(asc(patientCards.createdAt)),
    db
      .select({ row: appointmentSummaries, start: appointments.startDate })
      .from(appointmentSummaries)
      .leftJoin(appointments, eq(appointments.id, appointmentSummaries.appointmentId))
      .where(eq(appointmentSummaries.clientId, clientId))
      .orderBy(asc(appointmentSummaries.createdAt)),
    db
      .select({ firstName: clients.firstName, lastName: clients.lastName })
      .from(clients)
      .where(eq(clients.id, clientId)),
  ]);
  const docs: ExportDoc[] = [
    ...cards.map((c) => ({ type: 'patient_card' as const, row: c.row, appointmentStart: c.start })),
    ...summaries
      .map((s) => ({ type: 'summary' as const, row: s.row as DocRow, appointmentStart: s.start }))
      .sort((a, b) =>
        (a.appointmentStart ?? a.row.createdAt).localeCompare(
          b.appointmentStart ?? b.row.createdAt,
        ),
      ),
  ];
  if (!docs.length) throw notFound('clinical documents of this client');

  const read: Doc[] = [];
  for (const d of docs) read.push(await toDocument(db, d.type, d.row));
  const people = await namesOf(db, read);
  const hashes = new Map(
    (
      await db
        .select({ id: clinicalAmendments.id, hash: clinicalAmendments.contentHash })
        .from(clinicalAmendments)
        .where(
          inArray(
            clinicalAmendments.documentId,
            docs.map((d) => d.row.id),
          ),
        )
    ).map((a) => [a.id, a.hash]),
  );
  await db.insert(clinicalAccessLog).values(
    docs.map((d) => ({
      userId: principal.user?.id ?? null,
      clientId,
      documentType: d.type,
      documentId: d.row.id,
    })),
  );
  const name = client
    ? `${client.firstName} ${client.lastName}`
    : 'Klient:in (Stammdaten gelöscht)';
  return render({ name, clientId, now, docs, read, person: people, hashes });
}

async function namesOf(db: Db, docs: Doc[]) {
  const ids = new Set<string>();
  for (const d of docs) {
    if (d.signature) ids.add(d.signature.signedById);
    for (const a of d.amendments) if (a.authorId) ids.add(a.authorId);
  }
  const rows = ids.size
    ? await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.id, [...ids]))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r.email]));
  return (id: string | null) => (id ? (byId.get(id) ?? `Benutzer ${id}`) : 'unbekannt');
}

function render({
  name,
  clientId,
  now,
  docs,
  read,
  person,
  hashes,
}: {
  name: string;
  clientId: string;
  now: Date;
  docs: ExportDoc[];
  read: Doc[];
  person: (id: string | null) => string;
  hashes: Map<string, string>;
}) {
  const { pdf, done } = a4Pdf({ Title: `Behandlungsdokumentation ${name}` });
  const heading = (text: string, size = 12) => {
    if (pdf.y > 700) pdf.addPage();
    pdf.moveDown(0.5).font('bold').fontSize(size).text(text, PAGE_LEFT).font('body').fontSize(10);
  };
  pdf.font('bold').fontSize(16).text('Behandlungsdokumentation', PAGE_LEFT, 56);
  pdf.font('body').fontSize(10);
  pdf.text(`Klient:in: ${name}`);
  pdf.text(`Klienten-ID: ${clientId}`);
  pdf.text(`Erstellt am ${when(now.toISOString())} (Auskunft nach Art. 15 DSGVO, § 630g BGB)`);
  pdf.text(`Enthaltene Dokumente: ${docs.length}`);

  docs.forEach((d, i) => {
    const doc = read[i]!;
    heading(
      d.type === 'patient_card'
        ? 'Patientenkarte'
        : `Terminzusammenfassung zum Termin vom ${when(d.appointmentStart)}`,
      13,
    );
    pdf.text(`Dokument-ID: ${doc.id}`);
    pdf.text(`Status: ${STATUS[doc.status]}`);
    pdf.text(`Angelegt: ${when(doc.createdAt)} · Zuletzt geändert: ${when(doc.updatedAt)}`);
    pdf.moveDown(0.3);
    for (const line of contentLines(doc.content)) {
      pdf.text(line.text, PAGE_LEFT + 14 * line.depth);
    }
    pdf.x = PAGE_LEFT;
    if (doc.signature) {
      heading('Unterschrift', 10);
      pdf.text(
        `Unterschrieben von ${person(doc.signature.signedById)} am ${when(doc.signature.signedAt)}`,
      );
      pdf.text(`SHA-256 des unterschriebenen Inhalts: ${doc.signature.contentHash}`);
      pdf.text(
        doc.signature.verified
          ? 'Prüfung: Inhalt und Nachträge unverändert seit der Unterschrift.'
          : 'Prüfung: ACHTUNG – der gespeicherte Inhalt stimmt nicht mit der Unterschrift überein.',
      );
    }
    if (doc.completedAt) pdf.text(`Geprüft am ${when(doc.completedAt)}`);
    if (doc.canceledAt) pdf.text(`Verworfen am ${when(doc.canceledAt)}`);
    doc.amendments.forEach((a, n) => {
      heading(`Nachtrag ${n + 1}`, 10);
      pdf.text(`Von ${person(a.authorId)} am ${when(a.createdAt)}`);
      pdf.text(`Grund: ${a.reason}`);
      pdf.text(a.text);
      pdf.text(`SHA-256 des Nachtrags: ${hashes.get(a.id) ?? '–'}`);
    });
  });
  pdf.end();
  return done;
}

/** ADMIN (and SUPERADMIN): the one-client export. */
export const exportHandlers = defineHandlers({
  async exportClientClinicalDocuments({ params, principal, deps, reply }) {
    const pdf = await exportClientDocuments(deps.db, principal, params.clientId, deps.now());
    reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header(
        'content-disposition',
        `attachment; filename="Behandlungsdokumentation_${params.clientId}.pdf"`,
      );
    return pdf as never;
  },
});
