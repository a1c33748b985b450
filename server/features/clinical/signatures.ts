import { and, asc, gt, isNotNull } from 'drizzle-orm';
import { canonicalHash } from '../../canonical-json';
import type { Db } from '../../db/client';
import { clinicalAmendments, DOCUMENT_TYPES } from '../../db/schema/index';
import { amendmentPayload, signedPayload, tableOf } from './documents';

const PAGE = 500;
const NO_ID = '00000000-0000-0000-0000-000000000000';

export interface SignatureCheck {
  documents: number;
  amendments: number;
  /** Documents or amendments whose stored hash does not match their content (ids only). */
  broken: { kind: 'summary' | 'patient_card' | 'amendment'; id: string }[];
}

/**
 * Recomputes the hash of every signed document and every amendment, as reading one does:
 * after a restore, a document whose content or signature changed on the way shows here.
 */
export async function verifySignedDocuments(db: Db): Promise<SignatureCheck> {
  const result: SignatureCheck = { documents: 0, amendments: 0, broken: [] };
  for (const type of DOCUMENT_TYPES) {
    const table = tableOf(type);
    // By id in pages: the content of a decade's documents need not fit in memory at once.
    for (let after = NO_ID; ;) {
      const rows = await db
        .select()
        .from(table)
        .where(and(isNotNull(table.signedAt), gt(table.id, after)))
        .orderBy(asc(table.id))
        .limit(PAGE);
      for (const row of rows) {
        result.documents++;
        if (canonicalHash(signedPayload(type, row)) !== row.contentHash)
          result.broken.push({ kind: type, id: row.id });
      }
      if (rows.length < PAGE) break;
      after = rows.at(-1)!.id;
    }
  }
  for (let after = NO_ID; ;) {
    const rows = await db
      .select()
      .from(clinicalAmendments)
      .where(gt(clinicalAmendments.id, after))
      .orderBy(asc(clinicalAmendments.id))
      .limit(PAGE);
    for (const row of rows) {
      result.amendments++;
      if (canonicalHash(amendmentPayload(row)) !== row.contentHash)
        result.broken.push({ kind: 'amendment', id: row.id });
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.id;
  }
  return result;
}
