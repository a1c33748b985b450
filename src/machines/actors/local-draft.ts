import { fromCallback } from 'xstate';
import type { LocalDraft, LocalDraftCommand } from '../document-editor.machine';

/**
 * The document editor's local copy: typed text survives a reload of the tab.
 * sessionStorage, not localStorage: it is health data, and it should end with the tab rather
 * than stay on a shared computer. Cleared once the server holds the text.
 */

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const localDraftKey = (documentId: string) => `sprechstunde.draft.${documentId}`;

const isDraft = (value: unknown): value is LocalDraft =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LocalDraft).etag === 'string' &&
  typeof (value as LocalDraft).content === 'object' &&
  (value as LocalDraft).content !== null;

/** What a reload finds (the editor's `localDraft` input); null when nothing usable is stored. */
export function readLocalDraft(documentId: string, storage: DraftStorage = window.sessionStorage) {
  try {
    const value: unknown = JSON.parse(storage.getItem(localDraftKey(documentId)) ?? 'null');
    return isDraft(value) ? value : null;
  } catch {
    return null;
  }
}

/** The `persistLocalDraft` actor: writes each change, removes the copy on `clear`. */
export const createLocalDraftLogic = (storage: DraftStorage = window.sessionStorage) =>
  fromCallback<LocalDraftCommand, { documentId: string }>(({ input, receive }) => {
    const key = localDraftKey(input.documentId);
    receive((command) => {
      try {
        if (command.type === 'clear') storage.removeItem(key);
        // Without a known ETag (should not happen after load) there is nothing to base it on.
        else if (command.etag !== null)
          storage.setItem(key, JSON.stringify({ content: command.content, etag: command.etag }));
      } catch {
        // Storage full or disabled: the text is still in the editor and autosave goes on.
      }
    });
  });
