import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { APPOINTMENT_TYPES } from '../../../shared/contract/enums';
import type { Db } from '../../db/client';
import {
  APPOINTMENT_COLUMNS,
  CODEBOOK_HEADER,
  codebookRows,
  countColumnOf,
  PARTICIPANT_COLUMNS,
} from './columns';
import { csvRows, type Cell } from './csv';
import {
  BLANKED_AT,
  cellsBlankedAt,
  keyOf,
  planSuppression,
  publishedAt,
  QUASI_IDENTIFIERS,
  SUPPRESSION_ORDER,
} from './k-anonymity';
import { pseudonymizer } from './key';
import {
  appointmentPage,
  participantPage,
  quasiIdentifierCounts,
  quasiOf,
  researchCounts,
  type AppointmentCursor,
  type ParticipantRow,
} from './queries';

/** Every combination of the quasi-identifiers is shared by at least this many participants. */
export const K = 5;
/** Rows read per query. */
export const PAGE_ROWS = 2_000;

/** The CSV columns of each quasi-identifier. */
const QUASI_COLUMNS: Record<(typeof QUASI_IDENTIFIERS)[number], string[]> = {
  birthBand: ['birth_band'],
  postalRegion: ['postal_region'],
  clientType: ['client_type'],
  insurer: ['insurer'],
  campaign: ['campaign'],
  paidBySponsor: ['paid_by_sponsor'],
  closure: ['sessions_closed', 'days_to_sessions_closed'],
};

/** The closure as written: sessions_closed and the day band; both blank when suppressed. */
const closureCells = (closure: string): [boolean | null, string | null] =>
  closure === '' ? [null, null] : closure === 'open' ? [false, null] : [true, closure];

export interface ExportFile {
  name: string;
  bytes: number;
  sha256: string;
}

export interface ResearchExport {
  /** The ZIP, built while it is read. */
  stream: Readable;
  /** Counted before the first row is written (the manifest has what was written). */
  participants: number;
  appointments: number;
  suppressedCells: number;
  kAchieved: boolean;
}

/** A file of the ZIP made from text chunks, hashed and measured as it passes. */
function hashedFile(chunks: () => AsyncGenerator<string>) {
  const hash = createHash('sha256');
  let bytes = 0;
  let finish: (file: { bytes: number; sha256: string }) => void = () => {};
  const done = new Promise<{ bytes: number; sha256: string }>((resolve) => (finish = resolve));
  async function* passing() {
    for await (const text of chunks()) {
      if (!text) continue;
      const buffer = Buffer.from(text, 'utf8');
      hash.update(buffer);
      bytes += buffer.length;
      yield buffer;
    }
    finish({ bytes, sha256: hash.digest('hex') });
  }
  // Pulled by the ZIP writer: a page is read from the database only when the last was sent.
  const stream = () => Readable.from(passing(), { objectMode: false });
  return { stream, done };
}

/**
 * Plans the suppression (one GROUP BY) and counts, then returns the ZIP stream: the two CSV
 * files read page by page as the caller downloads, the codebook, and the manifest last (with
 * the hashes of the files before it).
 */
export async function startResearchExport(
  db: Db,
  { key, now, pageRows = PAGE_ROWS }: { key: string; now: Date; pageRows?: number },
): Promise<ResearchExport> {
  const plan = planSuppression(await quasiIdentifierCounts(db), K);
  const totals = await researchCounts(db);
  const pseudonym = pseudonymizer(key);
  const top = BLANKED_AT.length - 1;
  const written = { participants: 0, appointments: 0, suppressedCells: 0 };

  async function* participants() {
    yield csvRows([PARTICIPANT_COLUMNS.map((c) => c.name)]);
    let after: string | null = null;
    for (;;) {
      const page: ParticipantRow[] = await participantPage(db, after, pageRows);
      if (page.length === 0) return;
      const rows = page.map((r): Cell[] => {
        const quasi = quasiOf(r);
        // A client who consented after the plan was made is blanked entirely.
        const level = plan.levels.get(keyOf(quasi)) ?? top;
        written.suppressedCells += cellsBlankedAt(level);
        const shown = publishedAt(quasi, level);
        return [
          pseudonym(r.id),
          shown.birthBand || null,
          shown.postalRegion || null,
          shown.clientType || null,
          shown.insurer || null,
          shown.campaign || null,
          shown.paidBySponsor || null,
          r.mental_stress_indicator,
          ...APPOINTMENT_TYPES.map((t) => Number(r[countColumnOf(t)] ?? 0)),
          Number(r.no_shows),
          Number(r.cancellations),
          ...closureCells(shown.closure),
        ];
      });
      written.participants += rows.length;
      after = page[page.length - 1]!.id;
      yield csvRows(rows);
      if (page.length < pageRows) return;
    }
  }

  async function* appointments() {
    yield csvRows([APPOINTMENT_COLUMNS.map((c) => c.name)]);
    let after: AppointmentCursor | null = null;
    let seq = 0;
    for (;;) {
      const page = await appointmentPage(db, after, pageRows, now);
      if (page.length === 0) return;
      const rows = page.map((r): Cell[] => {
        seq = after && r.client_id === after.clientId ? seq + 1 : 1;
        after = { clientId: r.client_id, startKey: r.start_key, id: r.id };
        return [
          pseudonym(r.client_id),
          seq,
          r.day_offset,
          r.appointment_type,
          r.outcome,
          r.duration_min,
        ];
      });
      written.appointments += rows.length;
      yield csvRows(rows);
      if (page.length < pageRows) return;
    }
  }

  const zip = new ZipFile();
  // A PassThrough (typed as the general stream interface).
  const output = zip.outputStream as Readable;
  const mtime = now;
  const parts = [
    { name: 'participants.csv', file: hashedFile(participants) },
    { name: 'appointments.csv', file: hashedFile(appointments) },
  ];
  for (const { name, file } of parts) {
    zip.addReadStreamLazy(name, { mtime }, (callback) => {
      const stream = file.stream();
      // A failed read ends the download (the caller sees a broken transfer, not a short file).
      stream.on('error', (error) => output.destroy(error));
      callback(null, stream);
    });
  }
  const codebook = Buffer.from(csvRows([CODEBOOK_HEADER, ...codebookRows()]), 'utf8');
  zip.addBuffer(codebook, 'codebook.csv', { mtime });

  void Promise.all(parts.map((p) => p.file.done)).then((done) => {
    const files: ExportFile[] = [
      ...parts.map((p, i) => ({ name: p.name, ...done[i]! })),
      {
        name: 'codebook.csv',
        bytes: codebook.length,
        sha256: createHash('sha256').update(codebook).digest('hex'),
      },
    ];
    const manifest = {
      format: 'sprechstunde-research-export/1',
      exportedAt: now.toISOString(),
      consent: 'clients who agreed to research (wantsToProvideRecordingsForResearch = true)',
      counts: { participants: written.participants, appointments: written.appointments },
      pseudonym:
        "HMAC-SHA256 of 'client:' + the internal client id with a key kept outside the data; hex, first 16 characters",
      dates:
        "day offsets from enrolment = the client's sign-up (calendar days, Europe/Berlin); no calendar dates",
      kAnonymity: {
        k: K,
        quasiIdentifiers: QUASI_IDENTIFIERS.flatMap((q) => QUASI_COLUMNS[q]),
        suppressionOrder: SUPPRESSION_ORDER.map((q) => QUASI_COLUMNS[q].join('+')),
        achieved: plan.achieved,
        suppressedCells: written.suppressedCells,
      },
      files,
    };
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'), 'manifest.json', {
      mtime,
    });
    zip.end();
  });

  return {
    stream: output,
    participants: totals.participants,
    appointments: totals.appointments,
    suppressedCells: plan.suppressedCells,
    kAchieved: plan.achieved,
  };
}
