import type { MachineError } from '../shared/failures';
import type { WriteKey } from '../shared/write-key';

/** Field → value of the document's template (SOAP/DAP sections, card fields …). */
export type DocumentContent = Record<string, unknown>;

/** The lifecycle of the spec's task status; every status but `new` is read-only here. */
export type DocumentStatus = 'new' | 'sent' | 'completed' | 'canceled';

/** What the page shows around the text: blockers, the signature, the amendments. */
export interface DocumentMeta {
  blockers: ReadonlyArray<{ code: string; message: string }>;
  signature: {
    signedById: string;
    signedByName?: string | null;
    signedAt: string;
    contentHash: string;
    verified: boolean;
  } | null;
  amendments: ReadonlyArray<{
    id: string;
    authorId: string | null;
    authorName?: string | null;
    createdAt: string;
    reason: string;
    text: string;
  }>;
  /** Reviewers' comments on the signed document (not part of what was signed). */
  reviewComments?: ReadonlyArray<{
    id: string;
    authorId: string | null;
    authorName: string | null;
    createdAt: string;
    text: string;
  }>;
  /** Completed by review: when and by whom. */
  completed?: { at: string; byName: string | null } | null;
}

/** A reviewer's comment on a signed document. */
export interface ReviewCommentInput {
  documentId: string;
  text: string;
  /** Kept while the same text is sent again, so a retried comment is added once. */
  idempotencyKey: string;
}

/** Whose document it is: the page's header (client, appointment date and type, links back). */
export interface DocumentSubject {
  clientId: string;
  clientName: string;
  /** The appointment the document belongs to (a card: the one it was started at). */
  appointmentId: string | null;
  appointmentStart: string | null;
  appointmentType: string | null;
}

export interface LoadedDocument {
  content: DocumentContent;
  /** null: the document does not exist yet (content is the empty template); a save creates it. */
  etag: string | null;
  status: DocumentStatus;
  meta?: DocumentMeta;
  subject?: DocumentSubject | null;
}

export interface SavedDocument {
  etag: string;
  meta?: DocumentMeta;
}

export interface SignedDocument {
  etag: string;
  status: DocumentStatus;
  meta?: DocumentMeta;
}

/** A Nachtrag to a signed document (§ 630f BGB: the original stays as it was). */
export interface AmendmentInput {
  documentId: string;
  reason: string;
  text: string;
  /** Kept while the same amendment is sent again, so a retry adds it once. */
  idempotencyKey: string;
}

export interface SaveDraftInput {
  documentId: string;
  content: DocumentContent;
  /** Sent as If-Match; null: the document does not exist yet and this save creates it. */
  etag: string | null;
}

/** What the page found in sessionStorage at load: text typed before a reload. */
export interface LocalDraft {
  content: DocumentContent;
  /**
   * The ETag the local text was based on; a newer one on the server ends in a conflict. null:
   * typed before the document existed (its save creates it).
   */
  etag: string | null;
}

export type LocalDraftCommand =
  { type: 'persist'; content: DocumentContent; etag: string | null } | { type: 'clear' };

export interface DocumentEditorInput {
  documentId: string;
  localDraft?: LocalDraft | null;
}

export interface DocumentConflict {
  mine: DocumentContent;
  theirs: DocumentContent | null;
  theirsEtag: string | null;
}

export interface DocumentEditorContext {
  documentId: string;
  localDraft: LocalDraft | null;
  /** What the editor shows, always the newest typed text. */
  content: DocumentContent;
  /** The content the server holds under `etag` (as far as this editor knows). */
  savedContent: DocumentContent;
  /** The content of the save under way (to tell whether typing went on meanwhile). */
  sending: DocumentContent | null;
  etag: string | null;
  status: DocumentStatus;
  /** Failed save attempts in a row (drives the backoff). */
  attempt: number;
  conflict: DocumentConflict | null;
  error: MachineError | null;
  /** Blockers, signature and amendments from the server's last answer. */
  meta: DocumentMeta | null;
  /** Where a held-back in-app link wanted to go (the leave question is open). */
  leaveTo: string | null;
  /** Whose document it is, as loaded (the page's header); null until loaded. */
  subject: DocumentSubject | null;
  /** "Unterschreiben" was clicked while the text was still being saved: ask once it lands. */
  signRequested: boolean;
  /** The Idempotency-Key of the amendment or review comment being added, and its body. */
  writeKey: WriteKey | null;
}

export type DocumentEditorEvent =
  | { type: 'editor.change'; field: string; value: unknown }
  /** Ctrl+S or leaving the page: save without waiting for the debounce. */
  | { type: 'editor.saveNow' }
  /** The browser reports it is online again: retry at once. */
  | { type: 'editor.online' }
  | { type: 'editor.retry' }
  /** Opens the signing question; `sign.confirm` signs, `sign.abort` goes back. */
  | { type: 'editor.sign' }
  | { type: 'sign.confirm' }
  | { type: 'sign.abort' }
  | { type: 'amend.open' }
  | { type: 'amend.cancel' }
  | { type: 'amend.submit'; reason: string; text: string }
  /** A reviewer's comment on the signed document. */
  | { type: 'comment.submit'; text: string }
  | { type: 'conflict.keepMine' }
  | { type: 'conflict.takeTheirs' }
  | { type: 'conflict.merge'; content: DocumentContent }
  /** An in-app link was followed while something is unsaved (the leave guard held it back). */
  | { type: 'leave.request'; href: string }
  /** "Seite verlassen": go to `leaveTo`; the local copy keeps the text in this tab. */
  | { type: 'leave.confirm' }
  /** "Weiter bearbeiten": back to the text, saved again after the debounce. */
  | { type: 'leave.stay' };

export type DocumentEditorTag =
  | 'loading'
  /** Not created yet: the empty template; the first change creates the document. */
  | 'absent'
  | 'editable'
  | 'unsaved'
  | 'saving'
  | 'saved'
  | 'offline'
  | 'conflict'
  | 'confirmingSign'
  | 'signing'
  | 'readOnly'
  | 'amending'
  | 'amendSubmitting'
  | 'commenting'
  | 'leaving'
  | 'loadFailed'
  | 'error';
