import { assign, setup } from 'xstate';

/**
 * The visitor's consent to the tag manager of the client sign-up pages. Nothing of it loads
 * before "Akzeptieren"; "Ablehnen" is one click too; the choice is kept on this device and
 * can be changed from the footer ("Cookie-Einstellungen"). A decline after the script has run
 * reloads the page, since a loaded script cannot be taken back.
 *
 * Effects are named actions the wiring supplies (src/app/consent.ts) and tests replace with
 * `.provide()`: `storeChoice` (keeps the choice), `loadTagManager` (adds the script),
 * `reloadPage`.
 */
export type ConsentChoice = 'accepted' | 'declined';

export interface ConsentInput {
  /** Whether the server offers the tag manager on this page (its script is named). */
  available: boolean;
  /** The choice kept from an earlier visit, if any. */
  stored: ConsentChoice | null;
}

export interface ConsentContext {
  available: boolean;
  choice: ConsentChoice | null;
}

export type ConsentEvent =
  | { type: 'consent.accept' }
  | { type: 'consent.decline' }
  /** The footer's "Cookie-Einstellungen": the banner again, with the choice kept so far. */
  | { type: 'consent.open' }
  /** Closes the reopened banner without changing the choice (Escape). */
  | { type: 'consent.close' };

const choose = (choice: ConsentChoice) =>
  [
    { type: 'keepChoice', params: { choice } },
    { type: 'storeChoice', params: { choice } },
  ] as const;

export const consentMachine = setup({
  types: {
    context: {} as ConsentContext,
    events: {} as ConsentEvent,
    input: {} as ConsentInput,
  },
  actions: {
    keepChoice: assign((_, params: { choice: ConsentChoice }) => ({ choice: params.choice })),
    storeChoice: (_, _params: { choice: ConsentChoice }) => {
      throw new Error('consentMachine: provide storeChoice');
    },
    loadTagManager: () => {
      throw new Error('consentMachine: provide loadTagManager');
    },
    reloadPage: () => {
      throw new Error('consentMachine: provide reloadPage');
    },
  },
  guards: {
    unavailable: ({ context }) => !context.available,
    wasAccepted: ({ context }) => context.choice === 'accepted',
    wasDeclined: ({ context }) => context.choice === 'declined',
  },
}).createMachine({
  id: 'consent',
  context: ({ input }) => ({ available: input.available, choice: input.stored }),
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: 'unavailable', target: 'unavailable' },
        { guard: 'wasAccepted', target: 'accepted' },
        { guard: 'wasDeclined', target: 'declined' },
        { target: 'undecided' },
      ],
    },
    /** No tag manager on this page: no banner, no footer link. */
    unavailable: {},
    /** The banner, until the visitor chooses. */
    undecided: {
      tags: ['banner'],
      on: {
        'consent.accept': { target: 'accepted', actions: choose('accepted') },
        'consent.decline': { target: 'declined', actions: choose('declined') },
      },
    },
    accepted: {
      tags: ['decided'],
      entry: 'loadTagManager',
      initial: 'closed',
      states: {
        closed: { on: { 'consent.open': 'reviewing' } },
        /** The reopened banner while the tag manager runs. */
        reviewing: {
          tags: ['banner'],
          on: { 'consent.accept': 'closed', 'consent.close': 'closed' },
        },
      },
      // The script stays until the page is left: the page loads again without it.
      on: { 'consent.decline': { target: 'reloading', actions: choose('declined') } },
    },
    declined: {
      tags: ['decided'],
      initial: 'closed',
      states: {
        closed: { on: { 'consent.open': 'reviewing' } },
        /** The reopened banner after a decline. */
        reviewing: {
          tags: ['banner'],
          on: { 'consent.decline': 'closed', 'consent.close': 'closed' },
        },
      },
      on: { 'consent.accept': { target: 'accepted', actions: choose('accepted') } },
    },
    reloading: { entry: 'reloadPage', type: 'final' },
  },
});
