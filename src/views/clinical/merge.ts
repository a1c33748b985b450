import type { DocumentContent } from '../../machines/document-editor.machine';

/**
 * A starting point for merging two versions of a document after a 412: fields that agree stay,
 * texts that differ keep both (mine first, then theirs, marked), nested objects (the SOAP
 * sections, lifestyle) merge field by field, anything else (lists, flags) keeps mine. The coach
 * edits the result before it is saved again.
 */
export function mergeContents(
  mine: DocumentContent,
  theirs: DocumentContent,
  marker: string,
): DocumentContent {
  const merged: DocumentContent = { ...theirs, ...mine };
  for (const key of Object.keys(merged)) {
    const a = mine[key];
    const b = theirs[key];
    if (a === undefined || b === undefined || JSON.stringify(a) === JSON.stringify(b)) continue;
    if (typeof a === 'string' && typeof b === 'string') {
      merged[key] = a.trim() === '' ? b : b.trim() === '' ? a : `${a}\n\n${marker}\n${b}`;
    } else if (isPlainObject(a) && isPlainObject(b)) {
      merged[key] = mergeContents(a, b, marker);
    }
  }
  return merged;
}

const isPlainObject = (value: unknown): value is DocumentContent =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
