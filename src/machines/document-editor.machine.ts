import { assertEvent, assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { machineErrorOf, notProvided } from './shared/failures';
import { keyFor } from './shared/write-key';
import {
  AUTOSAVE_DELAY_MS,
  canAmend,
  isSavedNow,
  isStale,
  isTransient,
  retryDelayMs,
  same,
  signWaiting,
  theirsIsBase,
  typedWhileSaving,
} from './document-editor/guards';
import type {
  AmendmentInput,
  DocumentEditorContext,
  DocumentEditorEvent,
  DocumentEditorInput,
  DocumentEditorTag,
  DocumentMeta,
  LoadedDocument,
  LocalDraftCommand,
  ReviewCommentInput,
  SaveDraftInput,
  SavedDocument,
  SignedDocument,
} from './document-editor/types';

export type * from './document-editor/types';
export { AUTOSAVE_DELAY_MS, isTransient, retryDelayMs } from './document-editor/guards';

/**
 * The one editor of clinical documents (appointment summaries and patient cards):
 * load the draft, autosave it debounced while the coach types, retry with backoff while the
 * network is gone, detect a concurrent edit (If-Match / ETag, 412) and offer both versions to
 * merge, and sign it (then it is read-only; later changes are amendments, not this machine).
 *
 * Typed text is never lost: it stays in context through every failure, and every change is
 * handed to `persistLocalDraft` (sessionStorage in the app) so a reload starts from it (the
 * page reads it back and passes it as `localDraft`). The tag `unsaved` is the
 * `beforeunload` guard; `saved` is the visible "gespeichert".
 *
 * Looking creates nothing: a document that does not exist yet loads without an ETag
 * (`etag: null`, the page's empty template) into `absent`; the first change saves it, and a
 * save without an ETag creates it.
 *
 * "Unterschreiben" while the text is still being saved is not lost: the click is remembered
 * (`signRequested`), the save goes out at once, and the signing question opens when it lands
 * (unless typing went on meanwhile, or the server names blockers).
 *
 * Actors, supplied with `.provide()`: `loadDocument` (GET, ETag from the header),
 * `saveDraft` (PUT with If-Match; without an ETag the call that creates the document), `signDocument` (the signing call with If-Match) and
 * `persistLocalDraft` (a callback actor receiving `persist` / `clear` commands), `leaveGuard`
 * (armed while unsaved: `beforeunload` and held-back in-app links); action `leavePage`.
 */

/**
 * A save or a sign answered 412 (the ETag moved), or the first save found the document created
 * meanwhile (409 …_exists): first read the server's version; only when its text differs from
 * both mine and the text mine was based on is it a conflict to show.
 */
const STALE_TO_CHECK = { guard: 'isStale', target: 'checkingStale', actions: 'noteError' } as const;

/** In every state with something unsaved: the leave guard is armed, a held-back link asks. */
const GUARDED = { id: 'leaveGuard', src: 'leaveGuard' } as const;
const LEAVE_REQUEST = {
  'leave.request': { target: '#documentEditor.leaving', actions: 'holdLeave' },
} as const;

export const documentEditorMachine = setup({
  types: {
    context: {} as DocumentEditorContext,
    events: {} as DocumentEditorEvent,
    input: {} as DocumentEditorInput,
    tags: {} as DocumentEditorTag,
  },
  actors: {
    loadDocument: fromPromise<LoadedDocument, { documentId: string }>(
      notProvided('document-editor', 'loadDocument'),
    ),
    saveDraft: fromPromise<SavedDocument, SaveDraftInput>(
      notProvided('document-editor', 'saveDraft'),
    ),
    signDocument: fromPromise<SignedDocument, { documentId: string; etag: string }>(
      notProvided('document-editor', 'signDocument'),
    ),
    addAmendment: fromPromise<{ meta: DocumentMeta }, AmendmentInput>(
      notProvided('document-editor', 'addAmendment'),
    ),
    addReviewComment: fromPromise<{ meta: DocumentMeta }, ReviewCommentInput>(
      notProvided('document-editor', 'addReviewComment'),
    ),
    persistLocalDraft: fromCallback<LocalDraftCommand, { documentId: string }>(() => undefined),
    /**
     * Armed while something is not on the server (every state tagged `unsaved`): the browser's
     * own question on reload or closing the tab (`beforeunload`, with a save at once), and
     * in-app links held back as `leave.request`. The app's is `actors/leave-guard.ts`.
     */
    leaveGuard: fromCallback<DocumentEditorEvent>(() => undefined),
  },
  delays: {
    autosaveDelay: AUTOSAVE_DELAY_MS,
    retryDelay: ({ context }) => retryDelayMs(context.attempt),
  },
  guards: {
    isReadOnly: ({ event }) =>
      'output' in event && (event.output as LoadedDocument).status !== 'new',
    hasLocalChanges: ({ context, event }) =>
      context.localDraft !== null &&
      'output' in event &&
      !same(context.localDraft.content, (event.output as LoadedDocument).content),
    typedWhileSaving: ({ context }) => typedWhileSaving(context),
    isStale: ({ event }) => 'error' in event && isStale(event.error),
    isAbsent: ({ event }) => 'output' in event && (event.output as LoadedDocument).etag === null,
    isTransient: ({ event }) => 'error' in event && isTransient(event.error),
    canSign: ({ context }) => isSavedNow(context),
    /** A sign click during a save: once (the button waits), and only for a document with text. */
    mayRequestSign: ({ context }) => !context.signRequested,
    signWaiting: ({ context, event }) =>
      signWaiting(context, (event as unknown as { output: SavedDocument }).output),
    theirsIsMine: ({ context, event }) =>
      'output' in event && same((event.output as LoadedDocument).content, context.content),
    canAmend: ({ context }) => canAmend(context),
    theirsIsBase: ({ context, event }) =>
      'output' in event && theirsIsBase(context, event.output as LoadedDocument),
    isSavedNow: ({ context }) => isSavedNow(context),
  },
  actions: {
    /** Every keystroke: into context and into the local copy that survives a reload. */
    change: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'editor.change') return;
      const content = { ...context.content, [event.field]: event.value };
      // Typing after "Unterschreiben" means still writing: the request is dropped.
      enqueue.assign({ content, signRequested: false });
      enqueue.sendTo('localDraft', { type: 'persist', content, etag: context.etag });
    }),
    clearLocalDraft: enqueueActions(({ enqueue }) => {
      enqueue.sendTo('localDraft', { type: 'clear' });
    }),
    /** The server's version as loaded: shown, and what it holds. */
    adoptLoaded: assign(({ context, event }) => {
      const output = (event as unknown as { output: LoadedDocument }).output;
      return {
        content: output.content,
        savedContent: output.content,
        etag: output.etag,
        status: output.status,
        meta: output.meta ?? context.meta,
        subject: output.subject ?? context.subject,
      };
    }),
    forgetSignRequest: assign({ signRequested: false }),
    requestSign: assign({ signRequested: true }),
    /** A failure the view names (a 412 before the server's version is read, a refused load, sign, comment or amendment). */
    noteError: assign(({ event }) => ({
      error: machineErrorOf((event as unknown as { error: unknown }).error),
    })),
    /** A draft the server took: its ETag, and the text sent is the saved one now. */
    adoptSaved: assign(({ context, event }) => {
      const output = (event as unknown as { output: SavedDocument }).output;
      return {
        etag: output.etag,
        savedContent: context.sending!,
        sending: null,
        attempt: 0,
        error: null,
        meta: output.meta ?? context.meta,
      };
    }),
    /** A comment or an amendment the server took: the document's new meta. */
    adoptMeta: assign(({ event }) => ({
      meta: (event as unknown as { output: { meta: DocumentMeta } }).output.meta,
      error: null,
      writeKey: null,
    })),
    keyWrite: assign({
      writeKey: ({ context, event }) => keyFor(context.writeKey, event),
    }),
    /** Follows the held-back link (the app navigates; provided by the wiring). */
    leavePage: () => undefined,
    holdLeave: assign({
      leaveTo: ({ event }) => (event.type === 'leave.request' ? event.href : null),
    }),
  },
}).createMachine({
  id: 'documentEditor',
  context: ({ input }) => ({
    documentId: input.documentId,
    localDraft: input.localDraft ?? null,
    content: {},
    savedContent: {},
    sending: null,
    etag: null,
    status: 'new',
    attempt: 0,
    conflict: null,
    error: null,
    meta: null,
    leaveTo: null,
    subject: null,
    signRequested: false,
    writeKey: null,
  }),
  invoke: {
    id: 'localDraft',
    src: 'persistLocalDraft',
    input: ({ context }) => ({ documentId: context.documentId }),
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadDocument',
        src: 'loadDocument',
        input: ({ context }) => ({ documentId: context.documentId }),
        onDone: [
          { guard: 'isReadOnly', target: 'signed', actions: 'adoptLoaded' },
          {
            // Text typed before a reload wins; saving it with its old ETag tells a conflict.
            guard: 'hasLocalChanges',
            target: 'dirty',
            actions: assign(({ context, event }) => ({
              content: context.localDraft!.content,
              savedContent: event.output.content,
              // Typed before it existed, but it exists now: the save finds it (409, then 412 path).
              etag: context.localDraft!.etag ?? event.output.etag,
              status: event.output.status,
              meta: event.output.meta ?? null,
              subject: event.output.subject ?? null,
            })),
          },
          { guard: 'isAbsent', target: 'absent', actions: 'adoptLoaded' },
          { target: 'idle', actions: 'adoptLoaded' },
        ],
        onError: {
          target: 'loadFailed',
          actions: 'noteError',
        },
      },
    },
    /** Not found, forbidden or no network: nothing to edit yet (a local copy stays stored). */
    loadFailed: {
      tags: ['error', 'loadFailed'],
      on: { 'editor.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    /** Nothing stored yet: the empty template. Looking creates nothing; the first change does. */
    absent: {
      tags: ['editable', 'absent'],
      on: { 'editor.change': { target: 'dirty', actions: 'change' } },
    },
    /** As loaded, nothing typed yet. */
    idle: {
      tags: ['editable'],
      on: {
        'editor.change': { target: 'dirty', actions: 'change' },
        'editor.sign': { guard: 'canSign', target: 'confirmingSign' },
      },
    },
    /** Typed, waiting for the pause that triggers the autosave. */
    dirty: {
      tags: ['editable', 'unsaved'],
      invoke: GUARDED,
      after: { autosaveDelay: 'saving' },
      on: {
        ...LEAVE_REQUEST,
        // Re-entering restarts the debounce.
        'editor.change': { target: 'dirty', reenter: true, actions: 'change' },
        'editor.saveNow': 'saving',
        // Signing needs the text on the server first: save now, then ask.
        'editor.sign': { target: 'saving', actions: 'requestSign' },
      },
    },
    saving: {
      tags: ['editable', 'unsaved', 'saving'],
      entry: assign({ sending: ({ context }) => context.content }),
      invoke: [
        GUARDED,
        {
          id: 'saveDraft',
          src: 'saveDraft',
          input: ({ context }) => ({
            documentId: context.documentId,
            content: context.content,
            etag: context.etag!,
          }),
          onDone: [
            {
              guard: 'typedWhileSaving',
              target: 'dirty',
              actions: 'adoptSaved',
            },
            {
              // "Unterschreiben" was clicked while this save was out.
              guard: 'signWaiting',
              target: 'confirmingSign',
              actions: ['adoptSaved', 'clearLocalDraft', 'forgetSignRequest'],
            },
            {
              target: 'saved',
              actions: ['adoptSaved', 'clearLocalDraft'],
            },
          ],
          onError: [
            STALE_TO_CHECK,
            {
              guard: 'isTransient',
              target: 'offlineRetrying',
              actions: assign(({ context, event }) => ({
                sending: null,
                attempt: context.attempt + 1,
                error: machineErrorOf(event.error),
              })),
            },
            {
              target: 'failed',
              actions: assign(({ event }) => ({
                sending: null,
                error: machineErrorOf(event.error),
              })),
            },
          ],
        },
      ],
      // Typing goes on while the request is out; the answer then decides saved or dirty.
      on: {
        ...LEAVE_REQUEST,
        'editor.change': { actions: 'change' },
        'editor.sign': { guard: 'mayRequestSign', actions: 'requestSign' },
      },
    },
    /**
     * A save or a sign answered 412: the server's version decides. Same text as mine → saved
     * with its ETag; the text mine was based on → mine again with its ETag; signed meanwhile →
     * read-only; anything else → the conflict view. Typing goes on meanwhile.
     */
    checkingStale: {
      tags: ['editable', 'unsaved', 'saving'],
      invoke: [
        GUARDED,
        {
          id: 'loadTheirs',
          src: 'loadDocument',
          input: ({ context }) => ({ documentId: context.documentId }),
          onDone: [
            {
              // Signed by someone else meanwhile: nothing left to merge into.
              guard: 'isReadOnly',
              target: 'signed',
              actions: ['adoptLoaded', assign({ conflict: null, sending: null, error: null })],
            },
            {
              // My own text landed after all (e.g. sent while the page unloaded): no conflict.
              guard: 'theirsIsMine',
              target: 'saved',
              actions: [
                'adoptLoaded',
                assign({ conflict: null, sending: null, error: null, attempt: 0 }),
                'clearLocalDraft',
              ],
            },
            {
              guard: 'theirsIsBase',
              target: 'saving',
              actions: assign(({ event }) => ({
                etag: event.output.etag,
                savedContent: event.output.content,
                sending: null,
                error: null,
              })),
            },
            {
              target: 'conflict.choosing',
              actions: assign(({ context, event }) => ({
                sending: null,
                conflict: {
                  mine: context.content,
                  theirs: event.output.content,
                  theirsEtag: event.output.etag,
                },
              })),
            },
          ],
          onError: {
            target: 'conflict.theirsFailed',
            actions: assign(({ context, event }) => ({
              sending: null,
              error: machineErrorOf(event.error),
              conflict: { mine: context.content, theirs: null, theirsEtag: null },
            })),
          },
        },
      ],
      on: {
        ...LEAVE_REQUEST,
        'editor.change': { actions: 'change' },
        'editor.sign': { guard: 'mayRequestSign', actions: 'requestSign' },
      },
    },
    /** "gespeichert": the server holds exactly what is shown. */
    saved: {
      tags: ['editable', 'saved'],
      entry: 'forgetSignRequest',
      on: {
        'editor.change': { target: 'dirty', actions: 'change' },
        'editor.sign': { guard: 'canSign', target: 'confirmingSign' },
      },
    },
    /** No network: the text stays here and in the local copy; retried with backoff. */
    offlineRetrying: {
      tags: ['editable', 'unsaved', 'offline'],
      entry: 'forgetSignRequest',
      invoke: GUARDED,
      after: { retryDelay: 'saving' },
      on: {
        ...LEAVE_REQUEST,
        'editor.change': { actions: 'change' },
        'editor.online': 'saving',
        'editor.saveNow': 'saving',
      },
    },
    /** Refused for another reason (400, 403, 409 …): named in `error`, the text kept. */
    failed: {
      tags: ['editable', 'unsaved', 'error'],
      entry: 'forgetSignRequest',
      invoke: GUARDED,
      on: {
        ...LEAVE_REQUEST,
        'editor.change': { target: 'dirty', actions: 'change' },
        'editor.retry': 'saving',
      },
    },
    /** Someone else saved meanwhile (412): both versions, then keep mine, take theirs or merge. */
    conflict: {
      tags: ['unsaved', 'conflict'],
      entry: 'forgetSignRequest',
      invoke: GUARDED,
      on: LEAVE_REQUEST,
      initial: 'choosing',
      states: {
        /** Their version could not be read: mine stays; retry reads it again. */
        theirsFailed: {
          tags: ['error'],
          on: { 'editor.retry': '#documentEditor.checkingStale' },
        },
        choosing: {
          on: {
            'conflict.keepMine': {
              target: '#documentEditor.saving',
              actions: assign(({ context }) => ({
                content: context.conflict!.mine,
                etag: context.conflict!.theirsEtag,
                savedContent: context.conflict!.theirs!,
                conflict: null,
                error: null,
              })),
            },
            'conflict.takeTheirs': {
              target: '#documentEditor.saved',
              actions: [
                assign(({ context }) => ({
                  content: context.conflict!.theirs!,
                  savedContent: context.conflict!.theirs!,
                  etag: context.conflict!.theirsEtag,
                  conflict: null,
                  error: null,
                })),
                'clearLocalDraft',
              ],
            },
            'conflict.merge': {
              target: '#documentEditor.saving',
              actions: [
                assign(({ context, event }) => ({
                  content: event.content,
                  savedContent: context.conflict!.theirs!,
                  etag: context.conflict!.theirsEtag,
                  conflict: null,
                  error: null,
                })),
                // Runs after the assign: `etag` is theirs now.
                enqueueActions(({ context, enqueue }) => {
                  enqueue.sendTo('localDraft', {
                    type: 'persist',
                    content: context.content,
                    etag: context.etag,
                  });
                }),
              ],
            },
          },
        },
      },
    },
    /**
     * "Seite verlassen?": an in-app link was followed with something unsaved. Leaving follows
     * it (the local copy keeps the text in this tab); staying goes back to the text, saved
     * after the debounce (a save cut short by the question ends saved through the 412 check).
     */
    leaving: {
      tags: ['unsaved', 'leaving'],
      entry: 'forgetSignRequest',
      on: {
        'leave.confirm': { target: 'left', actions: 'leavePage' },
        'leave.stay': [
          {
            guard: 'isSavedNow',
            target: 'saved',
            actions: [assign({ leaveTo: null }), 'clearLocalDraft'],
          },
          { target: 'dirty', actions: assign({ leaveTo: null }) },
        ],
      },
    },
    /** On the way to `leaveTo`; the route ends this machine. */
    left: {},
    /** "Unterschreiben?": after signing the text is locked; changes become amendments. */
    confirmingSign: {
      tags: ['confirmingSign', 'saved'],
      on: {
        'sign.confirm': 'signing',
        'sign.abort': 'saved',
      },
    },
    signing: {
      tags: ['signing'],
      invoke: {
        id: 'signDocument',
        src: 'signDocument',
        input: ({ context }) => ({ documentId: context.documentId, etag: context.etag! }),
        onDone: {
          target: 'signed',
          actions: [
            assign(({ context, event }) => ({
              etag: event.output.etag,
              status: event.output.status,
              error: null,
              meta: event.output.meta ?? context.meta,
            })),
            'clearLocalDraft',
          ],
        },
        onError: [
          STALE_TO_CHECK,
          {
            // Not signed (offline, a blocker, 400 …): the saved draft stays; the view names why.
            target: 'saved',
            actions: 'noteError',
          },
        ],
      },
    },
    /** Signed (sent or completed) or canceled: read-only; changes are amendments. */
    signed: {
      tags: ['readOnly'],
      initial: 'viewing',
      states: {
        viewing: {
          on: {
            'amend.open': { guard: 'canAmend', target: 'amending' },
            'comment.submit': {
              guard: 'canAmend',
              target: 'commentSubmitting',
              actions: 'keyWrite',
            },
          },
        },
        /** A reviewer's comment on its way; a refusal names why and the text stays in the form. */
        commentSubmitting: {
          tags: ['commenting'],
          invoke: {
            id: 'addReviewComment',
            src: 'addReviewComment',
            input: ({ context, event }) => {
              assertEvent(event, 'comment.submit');
              const { text } = event;
              return {
                documentId: context.documentId,
                text,
                idempotencyKey: context.writeKey!.key,
              };
            },
            onDone: {
              target: 'viewing',
              actions: 'adoptMeta',
            },
            onError: {
              target: 'viewing',
              actions: 'noteError',
            },
          },
        },
        /** The "Nachtrag hinzufügen" form is open (reason and text). */
        amending: {
          tags: ['amending'],
          on: {
            'amend.cancel': { target: 'viewing', actions: assign({ error: null, writeKey: null }) },
            'amend.submit': { target: 'amendSubmitting', actions: 'keyWrite' },
          },
        },
        amendSubmitting: {
          tags: ['amending', 'amendSubmitting'],
          invoke: {
            id: 'addAmendment',
            src: 'addAmendment',
            input: ({ context, event }) => {
              assertEvent(event, 'amend.submit');
              const { reason, text } = event;
              return {
                documentId: context.documentId,
                reason,
                text,
                idempotencyKey: context.writeKey!.key,
              };
            },
            onDone: {
              target: 'viewing',
              actions: 'adoptMeta',
            },
            onError: {
              target: 'amending',
              actions: 'noteError',
            },
          },
        },
      },
    },
  },
});
