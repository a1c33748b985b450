import { describe, expect, it } from 'vitest';
import { fromCallback, type AnyEventObject, type SnapshotFrom } from 'xstate';
import {
  AUTOSAVE_DELAY_MS,
  documentEditorMachine,
  retryDelayMs,
  type DocumentEditorInput,
  type LoadedDocument,
  type LocalDraftCommand,
} from '../../src/machines/document-editor.machine';
import {
  createLocalDraftLogic,
  localDraftKey,
  readLocalDraft,
} from '../../src/machines/actors/local-draft';
import { describeModel, done, failed, flush, startMachine, type Run } from '../support/model';

/**
 * The clinical document editor: model-based over every state, then the
 * timing on a simulated clock (debounce, backoff) with a failing network, the conflict choices
 * and reload safety.
 */

type Snapshot = SnapshotFrom<typeof documentEditorMachine>;

const DOC_ID = '9d3f1c2a-4b5e-4f60-8a71-92b3c4d5e6f7';
const SERVER: LoadedDocument = {
  content: { subjective: 'Schläft schlecht' },
  etag: 'W/"1"',
  status: 'new',
};
const THEIRS: LoadedDocument = {
  content: { subjective: 'Schläft schlecht', assessment: 'Kollegin ergänzt' },
  etag: 'W/"2"',
  status: 'new',
};
const SIGNED: LoadedDocument = { ...SERVER, etag: 'W/"5"', status: 'sent' };
/** No document yet: the empty template, no ETag (looking creates nothing). */
const ABSENT: LoadedDocument = {
  content: { format: 'SOAP', riskFlag: false },
  etag: null,
  status: 'new',
};
const AMENDED = {
  blockers: [],
  signature: {
    signedById: DOC_ID,
    signedAt: '2026-11-26T10:00:00.000Z',
    contentHash: 'a'.repeat(64),
    verified: true,
  },
  amendments: [
    {
      id: DOC_ID,
      authorId: DOC_ID,
      createdAt: '2026-11-26T11:00:00.000Z',
      reason: 'Tippfehler',
      text: 'PSS 25, nicht 24',
    },
  ],
};
const LOCAL = { content: { subjective: 'Vor dem Neuladen getippt' }, etag: 'W/"1"' };

const problem = (status: number, code: string) =>
  Object.assign(new Error(code), { name: 'ApiError', status, code });
const NETWORK = Object.assign(new Error('offline'), {
  name: 'NetworkError',
  code: 'network_error',
});

const TYPE = { type: 'editor.change', field: 'plan', value: 'Schlafprotokoll führen' } as const;

/** The local copy the real wiring keeps in sessionStorage. */
function localStore() {
  const commands: LocalDraftCommand[] = [];
  const logic = fromCallback<LocalDraftCommand, { documentId: string }>(({ receive }) => {
    receive((command) => void commands.push(command));
  });
  return { commands, logic, last: () => commands.at(-1) };
}

function start(input: DocumentEditorInput = { documentId: DOC_ID }) {
  const local = localStore();
  const started = startMachine(documentEditorMachine, {
    input,
    actors: { persistLocalDraft: local.logic },
  });
  return { ...started, local };
}
type Started = ReturnType<typeof start>;
type EditorRun = Run<typeof documentEditorMachine> & Started;

const EVENTS = [
  TYPE,
  { type: 'editor.saveNow' },
  { type: 'editor.online' },
  { type: 'editor.retry' },
  { type: 'editor.sign' },
  { type: 'sign.confirm' },
  { type: 'sign.abort' },
  { type: 'amend.open' },
  { type: 'amend.cancel' },
  { type: 'amend.submit', reason: 'Tippfehler', text: 'PSS 25, nicht 24' },
  { type: 'conflict.keepMine' },
  { type: 'conflict.takeTheirs' },
  { type: 'conflict.merge', content: { subjective: 'zusammengeführt' } },
  { type: 'leave.request', href: '/appointments' },
  { type: 'comment.submit', text: 'Plan konkretisieren' },
  { type: 'leave.confirm' },
  { type: 'leave.stay' },
  { type: 'xstate.after.autosaveDelay.documentEditor.dirty' },
  { type: 'xstate.after.retryDelay.documentEditor.offlineRetrying' },
  done('loadDocument', SERVER),
  done('loadDocument', SIGNED),
  done('loadDocument', ABSENT),
  failed('loadDocument', problem(404, 'not_found')),
  done('saveDraft', { etag: 'W/"3"' }),
  failed('saveDraft', NETWORK),
  failed('saveDraft', problem(412, 'precondition_failed')),
  failed('saveDraft', problem(400, 'value_too_long')),
  // The first save of a new document: someone created it meanwhile.
  failed('saveDraft', problem(409, 'summary_exists')),
  done('loadTheirs', THEIRS),
  // Only the ETag moved (an unload save of the same text landed late).
  done('loadTheirs', { ...SERVER, etag: 'W/"6"' }),
  failed('loadTheirs', NETWORK),
  done('signDocument', { etag: 'W/"4"', status: 'sent' }),
  failed('signDocument', problem(409, 'blocked_missing_consent')),
  done('addAmendment', { meta: AMENDED }),
  done('addReviewComment', { meta: AMENDED }),
  failed('addReviewComment', problem(403, 'forbidden')),
  failed('addAmendment', problem(400, 'validation_failed')),
] as unknown as AnyEventObject[];

describeModel('document editor machine, model-based', {
  machine: documentEditorMachine,
  plans: [
    {
      name: 'fresh',
      input: { documentId: DOC_ID },
      events: EVENTS,
      // The timed way (debounce, then a retry after the backoff), which saveNow shortcuts.
      walks: [
        [
          done('loadDocument', SERVER),
          TYPE,
          { type: 'xstate.after.autosaveDelay.documentEditor.dirty' },
          failed('saveDraft', NETWORK),
          TYPE,
          { type: 'xstate.after.retryDelay.documentEditor.offlineRetrying' },
          done('saveDraft', { etag: 'W/"3"' }),
        ],
      ],
    },
    { name: 'after a reload', input: { documentId: DOC_ID, localDraft: LOCAL }, events: EVENTS },
  ],
  start: (plan) => start(plan.input) as EditorRun,
  states: {
    'documentEditor.loading': (s: Snapshot, run: EditorRun) => {
      expect(s.hasTag('loading')).toBe(true);
      expect(s.can(TYPE)).toBe(false);
      expect(run.fakes.loadDocument!.latest().input).toEqual({ documentId: DOC_ID });
    },
    'documentEditor.loadFailed': (s: Snapshot) => {
      expect(s.context.error?.code).toBe('not_found');
      expect(s.can({ type: 'editor.retry' })).toBe(true);
    },
    'documentEditor.absent': (s: Snapshot, run: EditorRun) => {
      // The empty template, editable, nothing stored and nothing sent to store it.
      expect(s.hasTag('editable') && s.hasTag('absent')).toBe(true);
      expect(s.hasTag('unsaved') || s.hasTag('saved')).toBe(false);
      expect(s.context.content).toEqual(ABSENT.content);
      expect(s.context.etag).toBeNull();
      expect(s.can({ type: 'editor.sign' })).toBe(false);
      expect(run.fakes.saveDraft?.calls ?? []).toHaveLength(0);
    },
    'documentEditor.idle': (s: Snapshot) => {
      expect(s.context.content).toEqual(SERVER.content);
      expect(s.hasTag('unsaved')).toBe(false);
      expect(s.can({ type: 'editor.sign' })).toBe(true);
    },
    'documentEditor.dirty': (s: Snapshot, run: EditorRun) => {
      expect(s.hasTag('unsaved')).toBe(true);
      // A click on "Unterschreiben" is taken: it saves at once and asks afterwards.
      expect(s.can({ type: 'editor.sign' })).toBe(true);
      // Reload safety: what is shown is what the local copy holds (or came from it).
      const last = run.local.last();
      if (last?.type === 'persist') expect(last.content).toEqual(s.context.content);
      else expect(s.context.content).toEqual(LOCAL.content);
    },
    'documentEditor.saving': (s: Snapshot, run: EditorRun) => {
      expect(s.hasTag('saving') && s.hasTag('unsaved')).toBe(true);
      const call = run.fakes.saveDraft!.latest();
      expect(call.input).toEqual({
        documentId: DOC_ID,
        content: s.context.content,
        etag: s.context.etag,
      });
    },
    'documentEditor.saved': (s: Snapshot, run: EditorRun) => {
      expect(s.hasTag('saved')).toBe(true);
      expect(s.hasTag('unsaved')).toBe(false);
      expect(s.context.content).toEqual(s.context.savedContent);
      // Nothing left in the local copy (cleared, or nothing was ever typed).
      expect(run.local.last()?.type).not.toBe('persist');
    },
    'documentEditor.offlineRetrying': (s: Snapshot) => {
      expect(s.hasTag('offline') && s.hasTag('unsaved') && s.hasTag('editable')).toBe(true);
      expect(s.context.error?.code).toBe('network_error');
      expect(s.context.attempt).toBeGreaterThan(0);
    },
    'documentEditor.failed': (s: Snapshot) => {
      expect(s.context.error).toEqual({ code: 'value_too_long', status: 400 });
      expect(s.hasTag('unsaved')).toBe(true);
    },
    'documentEditor.checkingStale': (s: Snapshot, run: EditorRun) => {
      // Still "Speichert …" with the text editable; the server's version is being read.
      expect(s.hasTag('saving') && s.hasTag('editable') && s.hasTag('unsaved')).toBe(true);
      expect(s.hasTag('conflict')).toBe(false);
      expect(s.can(TYPE)).toBe(true);
      expect(run.fakes.loadDocument!.latest().input).toEqual({ documentId: DOC_ID });
    },
    'documentEditor.leaving': (s: Snapshot) => {
      expect(s.hasTag('leaving') && s.hasTag('unsaved')).toBe(true);
      expect(s.context.leaveTo).toBe('/appointments');
      expect(s.can({ type: 'leave.confirm' }) && s.can({ type: 'leave.stay' })).toBe(true);
      expect(s.can(TYPE)).toBe(false);
    },
    'documentEditor.left': (s: Snapshot) => {
      expect(s.hasTag('unsaved')).toBe(false);
      expect(s.can({ type: 'leave.stay' })).toBe(false);
    },
    'documentEditor.conflict': (s: Snapshot) => {
      expect(s.hasTag('conflict') && s.hasTag('unsaved')).toBe(true);
      expect(s.context.conflict?.mine).toEqual(s.context.content);
      expect(s.can(TYPE)).toBe(false);
    },
    'documentEditor.conflict.theirsFailed': (s: Snapshot) => {
      expect(s.context.error?.code).toBe('network_error');
    },
    'documentEditor.conflict.choosing': (s: Snapshot) => {
      expect(s.context.conflict?.theirs).toEqual(THEIRS.content);
      expect(s.context.conflict?.theirsEtag).toBe(THEIRS.etag);
    },
    'documentEditor.signing': (s: Snapshot, run: EditorRun) => {
      expect(s.hasTag('signing')).toBe(true);
      expect(s.can(TYPE)).toBe(false);
      expect(run.fakes.signDocument!.latest().input).toEqual({
        documentId: DOC_ID,
        etag: s.context.etag,
      });
    },
    'documentEditor.confirmingSign': (s: Snapshot) => {
      expect(s.hasTag('confirmingSign')).toBe(true);
      expect(s.hasTag('unsaved')).toBe(false);
      expect(s.can(TYPE)).toBe(false);
      expect(s.can({ type: 'sign.confirm' })).toBe(true);
    },
    'documentEditor.signed.viewing': (s: Snapshot) => {
      expect(s.hasTag('amending')).toBe(false);
      expect(s.can({ type: 'amend.open' })).toBe(s.context.status === 'sent');
    },
    'documentEditor.signed.amending': (s: Snapshot) => {
      expect(s.hasTag('amending') && s.hasTag('readOnly')).toBe(true);
      expect(s.hasTag('amendSubmitting')).toBe(false);
    },
    'documentEditor.signed.amendSubmitting': (s: Snapshot, run: EditorRun) => {
      expect(s.hasTag('amendSubmitting')).toBe(true);
      expect(run.fakes.addAmendment!.latest().input).toEqual({
        documentId: DOC_ID,
        reason: 'Tippfehler',
        text: 'PSS 25, nicht 24',
        idempotencyKey: expect.any(String),
      });
    },
    'documentEditor.signed.commentSubmitting': (s: Snapshot, run: EditorRun) => {
      expect(s.hasTag('commenting') && s.hasTag('readOnly')).toBe(true);
      expect(run.fakes.addReviewComment!.latest().input).toEqual({
        documentId: DOC_ID,
        text: 'Plan konkretisieren',
        idempotencyKey: expect.any(String),
      });
    },
    'documentEditor.signed': (s: Snapshot) => {
      expect(s.hasTag('readOnly')).toBe(true);
      expect(s.hasTag('unsaved')).toBe(false);
      expect(s.can(TYPE)).toBe(false);
      expect(s.context.status).not.toBe('new');
    },
  },
});

// ---------------------------------------------------------------------------------------------

async function loaded(input?: DocumentEditorInput, doc: LoadedDocument = SERVER) {
  const run = start(input);
  run.fakes.loadDocument!.resolve(doc);
  await flush();
  return run;
}
const state = (run: Started) => run.actor.getSnapshot().value;
const type = (run: Started, value: string, field = 'plan') =>
  run.actor.send({ type: 'editor.change', field, value });
async function tick(run: Pick<Started, 'clock'>, ms: number) {
  run.clock.increment(ms);
  await flush();
}

describe('document editor: autosave on a simulated clock', () => {
  it('saves 1.5 s after the last keystroke, not before', async () => {
    const run = await loaded();
    type(run, 'S');
    await tick(run, 1000);
    type(run, 'Sc');
    await tick(run, 1000);
    expect(run.fakes.saveDraft!.calls).toHaveLength(0);
    await tick(run, AUTOSAVE_DELAY_MS - 1000);
    expect(state(run)).toBe('saving');
    expect(run.fakes.saveDraft!.calls).toEqual([
      { documentId: DOC_ID, content: { ...SERVER.content, plan: 'Sc' }, etag: SERVER.etag },
    ]);
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"' });
    await flush();
    expect(state(run)).toBe('saved');
    expect(run.actor.getSnapshot().hasTag('saved')).toBe(true);
  });

  it('keeps what is typed during a save and saves it next, with the new ETag', async () => {
    const run = await loaded();
    type(run, 'eins');
    run.actor.send({ type: 'editor.saveNow' });
    type(run, 'eins zwei');
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"' });
    await flush();
    expect(state(run)).toBe('dirty');
    expect(run.actor.getSnapshot().hasTag('unsaved')).toBe(true);
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(run.fakes.saveDraft!.latest().input).toMatchObject({
      content: { plan: 'eins zwei' },
      etag: 'W/"2"',
    });
  });

  it('retries with growing backoff while offline and never drops the text', async () => {
    expect([1, 2, 3, 4, 10].map(retryDelayMs)).toEqual([2000, 4000, 8000, 16000, 60000]);
    const run = await loaded();
    type(run, 'offline getippt');
    await tick(run, AUTOSAVE_DELAY_MS);
    run.fakes.saveDraft!.reject(NETWORK);
    await flush();
    expect(state(run)).toBe('offlineRetrying');
    type(run, 'offline weiter getippt');
    expect(run.local.last()).toMatchObject({
      type: 'persist',
      content: { plan: 'offline weiter getippt' },
    });
    await tick(run, 1999);
    expect(run.fakes.saveDraft!.calls).toHaveLength(1);
    await tick(run, 1);
    expect(run.fakes.saveDraft!.calls).toHaveLength(2);
    run.fakes.saveDraft!.reject(problem(503, 'http_503'));
    await flush();
    await tick(run, 2000);
    expect(run.fakes.saveDraft!.calls).toHaveLength(2); // second wait is 4 s
    await tick(run, 2000);
    expect(run.fakes.saveDraft!.latest().input.content).toMatchObject({
      plan: 'offline weiter getippt',
    });
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"' });
    await flush();
    expect(state(run)).toBe('saved');
    expect(run.actor.getSnapshot().context.attempt).toBe(0);
    expect(run.local.last()).toEqual({ type: 'clear' });
  });

  it('retries at once when the browser is online again', async () => {
    const run = await loaded();
    type(run, 'x');
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(NETWORK);
    await flush();
    run.actor.send({ type: 'editor.online' });
    expect(state(run)).toBe('saving');
    expect(run.fakes.saveDraft!.calls).toHaveLength(2);
  });

  it('names a refusal and keeps the text (no retry loop on 400)', async () => {
    const run = await loaded();
    type(run, 'x'.repeat(10));
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(problem(400, 'value_too_long'));
    await flush();
    await tick(run, 120_000);
    expect(state(run)).toBe('failed');
    expect(run.fakes.saveDraft!.calls).toHaveLength(1);
    expect(run.actor.getSnapshot().context.content).toMatchObject({ plan: 'x'.repeat(10) });
  });
});

describe('document editor: concurrent edits (412)', () => {
  async function inConflict() {
    const run = await loaded();
    type(run, 'meins');
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(problem(412, 'precondition_failed'));
    await flush();
    expect(state(run)).toBe('checkingStale');
    run.fakes.loadDocument!.resolve(THEIRS);
    await flush();
    expect(state(run)).toEqual({ conflict: 'choosing' });
    expect(run.actor.getSnapshot().context.conflict).toEqual({
      mine: { ...SERVER.content, plan: 'meins' },
      theirs: THEIRS.content,
      theirsEtag: THEIRS.etag,
    });
    return run;
  }

  it('keep mine: saves my text over theirs with their ETag', async () => {
    const run = await inConflict();
    run.actor.send({ type: 'conflict.keepMine' });
    expect(run.fakes.saveDraft!.latest().input).toEqual({
      documentId: DOC_ID,
      content: { ...SERVER.content, plan: 'meins' },
      etag: THEIRS.etag,
    });
  });

  it('take theirs: shows theirs as saved and drops the local copy', async () => {
    const run = await inConflict();
    run.actor.send({ type: 'conflict.takeTheirs' });
    expect(state(run)).toBe('saved');
    expect(run.actor.getSnapshot().context.content).toEqual(THEIRS.content);
    expect(run.local.last()).toEqual({ type: 'clear' });
  });

  it('merged: saves the merged text with their ETag and keeps it locally until saved', async () => {
    const run = await inConflict();
    const merged = { subjective: 'beides', plan: 'meins', assessment: 'Kollegin ergänzt' };
    run.actor.send({ type: 'conflict.merge', content: merged });
    expect(run.local.last()).toEqual({ type: 'persist', content: merged, etag: THEIRS.etag });
    expect(run.fakes.saveDraft!.latest().input).toMatchObject({
      content: merged,
      etag: THEIRS.etag,
    });
  });

  it('is no conflict when the server already holds exactly my text (my own save landed late)', async () => {
    const run = await loaded();
    type(run, 'a');
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(problem(412, 'precondition_failed'));
    await flush();
    const mine = run.actor.getSnapshot().context.content;
    run.fakes.loadDocument!.resolve({ content: mine, etag: 'W/"7"', status: 'new' });
    await flush();
    expect(state(run)).toBe('saved');
    expect(run.actor.getSnapshot().context.etag).toBe('W/"7"');
    expect(run.local.last()).toEqual({ type: 'clear' });
  });

  it('a stale sign is a conflict too', async () => {
    const run = await loaded();
    run.actor.send({ type: 'editor.sign' });
    run.actor.send({ type: 'sign.confirm' });
    run.fakes.signDocument!.reject(problem(412, 'precondition_failed'));
    await flush();
    expect(state(run)).toBe('checkingStale');
  });
});

describe('document editor: a reload while a save was in flight (the unload save lands late)', () => {
  // The order of the CI run: the page loads at ETag A; the unload save of the page before the
  // reload then lands (ETag B, the same text); the next edit is saved against A → 412.
  const A: LoadedDocument = {
    content: { subjective: 'Schläft schlecht', plan: 'Atemübung' },
    etag: 'W/"A"',
    status: 'new',
  };
  const B: LoadedDocument = { ...A, etag: 'W/"B"' };

  it('same text on the server: adopts its ETag, saves mine on top and ends "Gespeichert"', async () => {
    const run = await loaded(undefined, A);
    type(run, 'Atemübung täglich');
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(run.fakes.saveDraft!.latest().input.etag).toBe(A.etag);
    run.fakes.saveDraft!.reject(problem(412, 'precondition_failed'));
    await flush();
    expect(state(run)).toBe('checkingStale');
    expect(run.actor.getSnapshot().hasTag('conflict')).toBe(false);
    run.fakes.loadDocument!.resolve(B);
    await flush();
    expect(state(run)).toBe('saving');
    expect(run.fakes.saveDraft!.latest().input).toEqual({
      documentId: DOC_ID,
      content: { ...A.content, plan: 'Atemübung täglich' },
      etag: B.etag,
    });
    run.fakes.saveDraft!.resolve({ etag: 'W/"C"' });
    await flush();
    expect(state(run)).toBe('saved');
    expect(run.actor.getSnapshot().hasTag('saved')).toBe(true);
    expect(run.actor.getSnapshot().context.etag).toBe('W/"C"');
    expect(run.local.last()).toEqual({ type: 'clear' });
  });

  it('keeps typing during the check and saves all of it', async () => {
    const run = await loaded(undefined, A);
    type(run, 'eins');
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(problem(412, 'precondition_failed'));
    await flush();
    type(run, 'eins zwei');
    // The server holds what was just sent (my own late save): only the rest is left to save.
    run.fakes.loadDocument!.resolve({
      content: { ...A.content, plan: 'eins' },
      etag: 'W/"B"',
      status: 'new',
    });
    await flush();
    expect(state(run)).toBe('saving');
    expect(run.fakes.saveDraft!.latest().input).toMatchObject({
      content: { plan: 'eins zwei' },
      etag: 'W/"B"',
    });
  });

  it('a different text on the server is the conflict view with both versions', async () => {
    const run = await loaded(undefined, A);
    type(run, 'meins');
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(problem(412, 'precondition_failed'));
    await flush();
    run.fakes.loadDocument!.resolve({ ...B, content: { ...A.content, plan: 'von der Kollegin' } });
    await flush();
    expect(state(run)).toEqual({ conflict: 'choosing' });
    expect(run.actor.getSnapshot().context.conflict).toEqual({
      mine: { ...A.content, plan: 'meins' },
      theirs: { ...A.content, plan: 'von der Kollegin' },
      theirsEtag: B.etag,
    });
  });

  it('never loops on a 412 whose server version has my ETag', async () => {
    const run = await loaded(undefined, A);
    type(run, 'x');
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(problem(412, 'precondition_failed'));
    await flush();
    run.fakes.loadDocument!.resolve(A);
    await flush();
    expect(state(run)).toEqual({ conflict: 'choosing' });
    expect(run.fakes.saveDraft!.calls).toHaveLength(1);
  });

  it('the text typed before the reload comes back from the local copy and reaches the server', async () => {
    const storage = new Map<string, string>();
    const store = {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    };
    const first = startMachine(documentEditorMachine, {
      input: { documentId: DOC_ID },
      actors: { persistLocalDraft: createLocalDraftLogic(store) },
    });
    first.fakes.loadDocument!.resolve(A);
    await flush();
    first.actor.send({ type: 'editor.change', field: 'plan', value: 'vor dem Neuladen' });
    await tick(first, AUTOSAVE_DELAY_MS);
    expect(first.actor.getSnapshot().value).toBe('saving');
    first.actor.stop(); // reload with the save in flight

    // The reloaded page reads A (the save has not landed yet) and restores the local copy.
    const second = startMachine(documentEditorMachine, {
      input: { documentId: DOC_ID, localDraft: readLocalDraft(DOC_ID, store) },
      actors: { persistLocalDraft: createLocalDraftLogic(store) },
    });
    second.fakes.loadDocument!.resolve(A);
    await flush();
    expect(second.actor.getSnapshot().context.content).toMatchObject({ plan: 'vor dem Neuladen' });
    // Meanwhile the unload save lands (B, my text); the restored text's save gets 412.
    await tick(second, AUTOSAVE_DELAY_MS);
    second.fakes.saveDraft!.reject(problem(412, 'precondition_failed'));
    await flush();
    second.fakes.loadDocument!.resolve({
      content: { ...A.content, plan: 'vor dem Neuladen' },
      etag: 'W/"B"',
      status: 'new',
    });
    await flush();
    expect(second.actor.getSnapshot().value).toBe('saved');
    expect(second.actor.getSnapshot().context.content).toMatchObject({ plan: 'vor dem Neuladen' });
    expect(storage.has(localDraftKey(DOC_ID))).toBe(false);
  });
});

describe('document editor: leaving with unsaved changes', () => {
  it('holds an in-app link back, asks, and stays with the text saved after the debounce', async () => {
    const run = await loaded();
    type(run, 'ungespeichert');
    run.actor.send({ type: 'leave.request', href: '/appointments' });
    expect(state(run)).toBe('leaving');
    expect(run.actor.getSnapshot().hasTag('leaving')).toBe(true);
    run.actor.send({ type: 'leave.stay' });
    expect(state(run)).toBe('dirty');
    expect(run.actor.getSnapshot().context.leaveTo).toBeNull();
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(run.fakes.saveDraft!.latest().input.content).toMatchObject({ plan: 'ungespeichert' });
  });

  it('leaves when confirmed: follows the link, the local copy keeps the text', async () => {
    const left: string[] = [];
    const local = localStore();
    const run = startMachine(
      documentEditorMachine.provide({
        actions: { leavePage: ({ context }) => void left.push(context.leaveTo!) },
      }),
      { input: { documentId: DOC_ID }, actors: { persistLocalDraft: local.logic } },
    );
    run.fakes.loadDocument!.resolve(SERVER);
    await flush();
    run.actor.send(TYPE);
    run.actor.send({ type: 'leave.request', href: '/clients/1' });
    run.actor.send({ type: 'leave.confirm' });
    expect(left).toEqual(['/clients/1']);
    expect(run.actor.getSnapshot().value).toBe('left');
    expect(local.last()).toMatchObject({ type: 'persist', content: { plan: TYPE.value } });
  });

  it('arms the guard only while something is unsaved', async () => {
    let armed = 0;
    const guard = fromCallback(() => {
      armed += 1;
      return () => void (armed -= 1);
    });
    const run = startMachine(documentEditorMachine, {
      input: { documentId: DOC_ID },
      actors: { persistLocalDraft: localStore().logic, leaveGuard: guard },
    });
    run.fakes.loadDocument!.resolve(SERVER);
    await flush();
    expect(armed).toBe(0);
    run.actor.send(TYPE);
    expect(armed).toBe(1);
    run.actor.send({ type: 'editor.saveNow' });
    expect(armed).toBe(1);
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"' });
    await flush();
    expect(armed).toBe(0);
    // A request while nothing is unsaved is no question.
    run.actor.send({ type: 'leave.request', href: '/x' });
    expect(run.actor.getSnapshot().value).toBe('saved');
  });
});

describe('document editor: reload, leaving and signing', () => {
  it('starts from the text typed before a reload and saves it against its old ETag', async () => {
    const run = await loaded({ documentId: DOC_ID, localDraft: LOCAL });
    expect(state(run)).toBe('dirty');
    expect(run.actor.getSnapshot().context.content).toEqual(LOCAL.content);
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(run.fakes.saveDraft!.latest().input).toEqual({
      documentId: DOC_ID,
      content: LOCAL.content,
      etag: LOCAL.etag,
    });
  });

  it('ignores a local copy equal to the server', async () => {
    const run = await loaded({
      documentId: DOC_ID,
      localDraft: { content: SERVER.content, etag: 'W/"0"' },
    });
    expect(state(run)).toBe('idle');
    expect(run.actor.getSnapshot().context.etag).toBe(SERVER.etag);
  });

  it('guards leaving exactly while something is not on the server', async () => {
    const run = await loaded();
    const unsaved = () => run.actor.getSnapshot().hasTag('unsaved');
    expect(unsaved()).toBe(false);
    type(run, 'a');
    expect(unsaved()).toBe(true);
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(unsaved()).toBe(true);
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"' });
    await flush();
    expect(unsaved()).toBe(false);
  });

  it('signs only what is saved, then is read-only', async () => {
    const run = await loaded();
    type(run, 'a');
    // Unsaved text is saved before the question, never signed as it stands.
    run.actor.send({ type: 'editor.sign' });
    expect(state(run)).toBe('saving');
    expect(run.fakes.signDocument?.calls ?? []).toHaveLength(0);
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"' });
    await flush();
    expect(state(run)).toBe('confirmingSign');
    run.actor.send({ type: 'sign.confirm' });
    expect(run.fakes.signDocument!.latest().input).toEqual({ documentId: DOC_ID, etag: 'W/"2"' });
    run.fakes.signDocument!.resolve({ etag: 'W/"3"', status: 'sent' });
    await flush();
    expect(state(run)).toEqual({ signed: 'viewing' });
    type(run, 'nachträglich');
    expect(run.actor.getSnapshot().context.content).toMatchObject({ plan: 'a' });
  });

  it('a refused sign keeps the saved draft and names why', async () => {
    const run = await loaded();
    run.actor.send({ type: 'editor.sign' });
    run.actor.send({ type: 'sign.confirm' });
    run.fakes.signDocument!.reject(NETWORK);
    await flush();
    expect(state(run)).toBe('saved');
    expect(run.actor.getSnapshot().context.error?.code).toBe('network_error');
  });

  it('appends an amendment to a signed document and shows it; a refusal keeps the form open', async () => {
    const run = await loaded(undefined, SIGNED);
    run.actor.send({ type: 'amend.open' });
    run.actor.send({ type: 'amend.submit', reason: 'x', text: 'y' });
    run.fakes.addAmendment!.reject(problem(400, 'validation_failed'));
    await flush();
    expect(state(run)).toEqual({ signed: 'amending' });
    expect(run.actor.getSnapshot().context.error?.code).toBe('validation_failed');
    run.actor.send({ type: 'amend.submit', reason: 'Tippfehler', text: 'PSS 25, nicht 24' });
    run.fakes.addAmendment!.resolve({ meta: AMENDED });
    await flush();
    expect(state(run)).toEqual({ signed: 'viewing' });
    expect(run.actor.getSnapshot().context.meta?.amendments).toHaveLength(1);
    expect(run.actor.getSnapshot().context.content).toEqual(SIGNED.content);
  });

  it('adds an amendment or comment sent again after a failure under one Idempotency-Key, a changed one under a new key', async () => {
    const run = await loaded(undefined, SIGNED);
    const keyOf = (fake: 'addAmendment' | 'addReviewComment') =>
      run.fakes[fake]!.latest().input.idempotencyKey;
    run.actor.send({ type: 'amend.open' });
    const amendment = {
      type: 'amend.submit',
      reason: 'Tippfehler',
      text: 'PSS 25, nicht 24',
    } as const;
    run.actor.send(amendment);
    const first = keyOf('addAmendment');
    // Saved, but the answer was lost (a 503 during the commit): "try again" must not add it twice.
    run.fakes.addAmendment!.reject(problem(503, 'database_unavailable'));
    await flush();
    run.actor.send(amendment);
    expect(keyOf('addAmendment')).toBe(first);
    run.fakes.addAmendment!.reject(problem(503, 'database_unavailable'));
    await flush();
    run.actor.send({ ...amendment, text: 'PSS 26, nicht 24' });
    const changed = keyOf('addAmendment');
    expect(changed).not.toBe(first);
    run.fakes.addAmendment!.resolve({ meta: AMENDED });
    await flush();

    run.actor.send({ type: 'comment.submit', text: 'Plan konkretisieren' });
    const comment = keyOf('addReviewComment');
    expect([first, changed]).not.toContain(comment);
    run.fakes.addReviewComment!.reject(NETWORK);
    await flush();
    run.actor.send({ type: 'comment.submit', text: 'Plan konkretisieren' });
    expect(keyOf('addReviewComment')).toBe(comment);
  });

  it('opens a signed document read-only', async () => {
    const run = await loaded(undefined, SIGNED);
    expect(state(run)).toEqual({ signed: 'viewing' });
    expect(run.actor.getSnapshot().hasTag('readOnly')).toBe(true);
  });
});

describe('document editor: the local copy in sessionStorage', () => {
  function memoryStorage() {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
  }

  it('keeps typed text across a reload and drops it once saved', async () => {
    const storage = memoryStorage();
    const first = startMachine(documentEditorMachine, {
      input: { documentId: DOC_ID },
      actors: { persistLocalDraft: createLocalDraftLogic(storage) },
    });
    first.fakes.loadDocument!.resolve(SERVER);
    await flush();
    first.actor.send({ type: 'editor.change', field: 'plan', value: 'nicht verlieren' });
    first.actor.stop(); // the tab reloads before the autosave

    const localDraft = readLocalDraft(DOC_ID, storage);
    expect(localDraft).toEqual({
      content: { ...SERVER.content, plan: 'nicht verlieren' },
      etag: SERVER.etag,
    });
    const second = startMachine(documentEditorMachine, {
      input: { documentId: DOC_ID, localDraft },
      actors: { persistLocalDraft: createLocalDraftLogic(storage) },
    });
    second.fakes.loadDocument!.resolve(SERVER);
    await flush();
    expect(second.actor.getSnapshot().context.content).toMatchObject({ plan: 'nicht verlieren' });
    second.actor.send({ type: 'editor.saveNow' });
    second.fakes.saveDraft!.resolve({ etag: 'W/"2"' });
    await flush();
    expect(second.actor.getSnapshot().value).toBe('saved');
    expect(storage.items.has(localDraftKey(DOC_ID))).toBe(false);
  });

  it('ignores what is not a draft', () => {
    const storage = memoryStorage();
    storage.setItem(localDraftKey(DOC_ID), '{kaputt');
    expect(readLocalDraft(DOC_ID, storage)).toBeNull();
    storage.setItem(localDraftKey(DOC_ID), JSON.stringify({ content: 'x' }));
    expect(readLocalDraft(DOC_ID, storage)).toBeNull();
  });
});

describe('document editor: looking creates nothing', () => {
  it('opens a document that does not exist as the empty template and creates it with the first change', async () => {
    const run = await loaded(undefined, ABSENT);
    expect(state(run)).toBe('absent');
    // Looking, waiting, pressing Ctrl+S: nothing is stored.
    run.actor.send({ type: 'editor.saveNow' });
    await tick(run, 60_000);
    expect(run.fakes.saveDraft!.calls).toHaveLength(0);
    expect(run.actor.getSnapshot().hasTag('unsaved')).toBe(false);
    // The first change is kept locally (no ETag yet) and saved without one: that creates it.
    type(run, 'Atemübung', 'plan');
    expect(run.local.last()).toEqual({
      type: 'persist',
      content: { ...ABSENT.content, plan: 'Atemübung' },
      etag: null,
    });
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(run.fakes.saveDraft!.calls).toEqual([
      { documentId: DOC_ID, content: { ...ABSENT.content, plan: 'Atemübung' }, etag: null },
    ]);
    run.fakes.saveDraft!.resolve({ etag: 'W/"1"' });
    await flush();
    expect(state(run)).toBe('saved');
    // From now on it is saved against its ETag.
    type(run, 'Atemübung täglich', 'plan');
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(run.fakes.saveDraft!.latest().input.etag).toBe('W/"1"');
  });

  it('reads the one created meanwhile in another tab instead of failing (409 …_exists)', async () => {
    const run = await loaded(undefined, ABSENT);
    type(run, 'meins', 'plan');
    run.actor.send({ type: 'editor.saveNow' });
    run.fakes.saveDraft!.reject(problem(409, 'summary_exists'));
    await flush();
    expect(state(run)).toBe('checkingStale');
    // The other tab's is still the empty template: mine goes on top of it with its ETag.
    run.fakes.loadDocument!.resolve({ ...ABSENT, etag: 'W/"1"' });
    await flush();
    expect(state(run)).toBe('saving');
    expect(run.fakes.saveDraft!.latest().input).toMatchObject({
      etag: 'W/"1"',
      content: { plan: 'meins' },
    });
  });
});

describe('document editor: "Unterschreiben" while the autosave is in flight', () => {
  const META = { blockers: [], signature: null, amendments: [] };

  it('takes a click during the save and asks once the save lands (the first click did nothing before)', async () => {
    const run = await loaded();
    type(run, 'Atemübung täglich');
    await tick(run, AUTOSAVE_DELAY_MS);
    expect(state(run)).toBe('saving');
    // The order seen in the report: the save is out, then the click, then the save's answer.
    expect(run.actor.getSnapshot().can({ type: 'editor.sign' })).toBe(true);
    run.actor.send({ type: 'editor.sign' });
    expect(run.actor.getSnapshot().context.signRequested).toBe(true);
    expect(run.actor.getSnapshot().can({ type: 'editor.sign' })).toBe(false);
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"', meta: META });
    await flush();
    expect(state(run)).toBe('confirmingSign');
    run.actor.send({ type: 'sign.confirm' });
    expect(run.fakes.signDocument!.latest().input).toEqual({ documentId: DOC_ID, etag: 'W/"2"' });
  });

  it('takes a click before the debounce ran out: saves at once, then asks', async () => {
    const run = await loaded();
    type(run, 'Atemübung');
    run.actor.send({ type: 'editor.sign' });
    expect(state(run)).toBe('saving');
    expect(run.fakes.saveDraft!.calls).toHaveLength(1);
    run.fakes.saveDraft!.resolve({ etag: 'W/"2"', meta: META });
    await flush();
    expect(state(run)).toBe('confirmingSign');
  });

  it('does not ask when typing went on after the click, or the server names a blocker', async () => {
    const typed = await loaded();
    type(typed, 'eins');
    typed.actor.send({ type: 'editor.sign' });
    type(typed, 'eins zwei');
    typed.fakes.saveDraft!.resolve({ etag: 'W/"2"', meta: META });
    await flush();
    expect(state(typed)).toBe('dirty');
    expect(typed.actor.getSnapshot().context.signRequested).toBe(false);

    const blocked = await loaded();
    type(blocked, 'eins');
    blocked.actor.send({ type: 'editor.sign' });
    const blocker = { code: 'sections_incomplete', message: 'Nicht alle Abschnitte …' };
    blocked.fakes.saveDraft!.resolve({ etag: 'W/"2"', meta: { ...META, blockers: [blocker] } });
    await flush();
    expect(state(blocked)).toBe('saved');
    expect(blocked.actor.getSnapshot().context.signRequested).toBe(false);
  });

  it('drops the request when the save fails (the failure is shown instead)', async () => {
    const run = await loaded();
    type(run, 'eins');
    run.actor.send({ type: 'editor.sign' });
    run.fakes.saveDraft!.reject(NETWORK);
    await flush();
    expect(state(run)).toBe('offlineRetrying');
    expect(run.actor.getSnapshot().context.signRequested).toBe(false);
  });
});
