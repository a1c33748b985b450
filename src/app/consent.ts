import { createActor, type ActorRefFrom } from 'xstate';
import { loadTagManager, tagManagerScript } from '../lib/tag-manager';
import { consentMachine, type ConsentChoice } from '../machines/consent.machine';
import type { InspectOption } from './inspector';

export type ConsentActor = ActorRefFrom<typeof consentMachine>;

/** Where the choice is kept on this device (no cookie: nothing is sent with requests). */
export const CONSENT_KEY = 'sprechstunde.consent.tagManager';

type ConsentStorage = Pick<Storage, 'getItem' | 'setItem'>;

function readChoice(storage: ConsentStorage | undefined): ConsentChoice | null {
  try {
    const value = storage?.getItem(CONSENT_KEY);
    return value === 'accepted' || value === 'declined' ? value : null;
  } catch {
    // Storage switched off: ask again on every visit.
    return null;
  }
}

/** The consent actor of this page, wired to the document, local storage and reload. */
export function createConsentActor(
  deps: {
    document?: Document | undefined;
    storage?: ConsentStorage | undefined;
    reload?: () => void;
    inspect?: InspectOption | undefined;
  } = {},
): ConsentActor {
  const doc = deps.document ?? (typeof document === 'undefined' ? undefined : document);
  const storage = deps.storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
  const script = doc ? tagManagerScript(doc) : null;
  const actor = createActor(
    consentMachine.provide({
      actions: {
        storeChoice: (_, { choice }) => {
          try {
            storage?.setItem(CONSENT_KEY, choice);
          } catch {
            // Not kept: the banner asks again next time, nothing loads without a yes.
          }
        },
        loadTagManager: () => {
          if (script && doc) loadTagManager(script, doc);
        },
        reloadPage: deps.reload ?? (() => window.location.reload()),
      },
    }),
    {
      input: { available: script !== null, stored: readChoice(storage) },
      ...(deps.inspect ? { inspect: deps.inspect } : {}),
    },
  );
  actor.start();
  return actor;
}
