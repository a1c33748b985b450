import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { type MachineError, machineErrorOf, notProvided } from './shared/failures';

/**
 * `/admin/research-export` (ADMIN, SUPERADMIN): how many clients consented to research (and
 * their appointments) before anything leaves, then "ZIP herunterladen".
 *
 * loading → ready (or loadFailed, with retry); `research.download` → downloading → done, or
 * failed (kept on the page with the counts; the download may be tried again). Without the
 * pseudonym key on the server (keyConfigured false) there is nothing to download.
 * `research.refresh` reads the counts again from any settled state.
 */
export type ResearchExportSummary = components['schemas']['ResearchExportSummary'];

export interface ResearchExportContext {
  summary: ResearchExportSummary | null;
  error: MachineError | null;
}

export type ResearchExportEvent =
  { type: 'research.download' } | { type: 'research.retry' } | { type: 'research.refresh' };

const settled = {
  'research.download': { guard: 'downloadable', target: 'downloading' },
  'research.refresh': 'loading',
} as const;

export const researchExportMachine = setup({
  types: {
    context: {} as ResearchExportContext,
    events: {} as ResearchExportEvent,
    tags: {} as 'busy' | 'error' | 'loaded' | 'downloading' | 'done',
  },
  actors: {
    loadResearchSummary: fromPromise<ResearchExportSummary>(
      notProvided('research export', 'loadResearchSummary'),
    ),
    downloadResearchExport: fromPromise<unknown>(
      notProvided('research export', 'downloadResearchExport'),
    ),
  },
  guards: {
    downloadable: ({ context }) => context.summary?.keyConfigured === true,
  },
  actions: {
    keepError: assign({ error: (_, params: { error: unknown }) => machineErrorOf(params.error) }),
  },
}).createMachine({
  id: 'researchExport',
  context: { summary: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadResearchSummary',
        src: 'loadResearchSummary',
        onDone: {
          target: 'ready',
          actions: assign({ summary: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: { tags: ['error'], on: { 'research.retry': 'loading' } },
    ready: { tags: ['loaded'], on: settled },
    downloading: {
      tags: ['loaded', 'busy', 'downloading'],
      entry: assign({ error: null }),
      invoke: {
        id: 'downloadResearchExport',
        src: 'downloadResearchExport',
        onDone: 'done',
        onError: {
          target: 'failed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    done: { tags: ['loaded', 'done'], on: settled },
    failed: { tags: ['loaded', 'error'], on: settled },
  },
});
