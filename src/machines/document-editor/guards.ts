import { machineErrorOf } from '../shared/failures';
import type {
  DocumentContent,
  DocumentEditorContext,
  LoadedDocument,
  SavedDocument,
} from './types';

/** Debounce after the last keystroke. */
export const AUTOSAVE_DELAY_MS = 1500;
const RETRY_BASE_MS = 2000;
const RETRY_MAX_MS = 60_000;

/** 2 s, 4 s, 8 s … at most a minute between retries while offline. */
export const retryDelayMs = (attempt: number) =>
  Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_MS);

export const same = (a: DocumentContent, b: DocumentContent) =>
  JSON.stringify(a) === JSON.stringify(b);
const statusOf = (error: unknown) => (error as { status?: unknown } | undefined)?.status;
const codeOf = (error: unknown) => String((error as { code?: unknown } | undefined)?.code ?? '');

/** No answer or a gateway without one: worth retrying with the same text. */
export const isTransient = (error: unknown) => {
  const status = statusOf(error);
  return (
    machineErrorOf(error).code === 'network_error' ||
    status === 502 ||
    status === 503 ||
    status === 504
  );
};

/** The ETag moved (412), or the first save found the document created meanwhile (409 …_exists). */
export const isStale = (error: unknown) =>
  statusOf(error) === 412 || (statusOf(error) === 409 && /_exists$/.test(codeOf(error)));

/** Text typed since the save under way went out. */
export const typedWhileSaving = (context: DocumentEditorContext) =>
  context.sending !== null && !same(context.sending, context.content);

/** Everything shown is on the server under a known ETag. */
export const isSavedNow = (context: DocumentEditorContext) =>
  context.etag !== null && same(context.content, context.savedContent);

export const canAmend = (context: DocumentEditorContext) =>
  context.status === 'sent' || context.status === 'completed';

/**
 * The save that a sign click waited for landed, nothing was typed meanwhile and the server
 * names nothing that blocks signing: the question opens.
 */
export const signWaiting = (context: DocumentEditorContext, saved: SavedDocument) =>
  context.signRequested &&
  context.sending !== null &&
  same(context.sending, context.content) &&
  (saved.meta?.blockers.length ?? 0) === 0;

/**
 * The server's text is the one mine was based on (or the one just sent): only its ETag
 * moved, e.g. an unload save of the same text landed after this page loaded. Nobody else
 * changed anything, so mine goes on top with the new ETag.
 */
export const theirsIsBase = (context: DocumentEditorContext, theirs: LoadedDocument) => {
  if (theirs.etag === context.etag) return false; // a 412 on the same ETag: never loop
  return (
    same(theirs.content, context.savedContent) ||
    (context.sending !== null && same(theirs.content, context.sending))
  );
};
