import { assign, fromPromise, setup } from 'xstate';

/**
 * Choices for the staff lists' filters (coaches, insurers, campaigns): loading → ready, or
 * unavailable, in which case the lists still work and those filters offer only "Alle".
 */
export interface FilterOptions {
  coaches: Array<{ id: string; name: string; active: boolean }>;
  /** Every insurer's name, active ones first (filters offer all, so a filter finds every client). */
  insurers: string[];
  campaigns: Array<{ code: string; name: string }>;
  /** Names of deactivated insurers and codes of deactivated campaigns: not offered for new picks. */
  inactiveInsurers?: string[];
  inactiveCampaigns?: string[];
}

export const filterOptionsMachine = setup({
  types: {
    context: {} as { withCoaches: boolean; options: FilterOptions },
    input: {} as { withCoaches: boolean },
    tags: {} as 'busy',
  },
  actors: {
    loadFilterOptions: fromPromise<FilterOptions, { withCoaches: boolean }>(() => {
      throw new Error('filter options machine: provide the "loadFilterOptions" actor');
    }),
  },
}).createMachine({
  id: 'filterOptions',
  context: ({ input }) => ({
    withCoaches: input.withCoaches,
    options: { coaches: [], insurers: [], campaigns: [] },
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadFilterOptions',
        src: 'loadFilterOptions',
        input: ({ context }) => ({ withCoaches: context.withCoaches }),
        onDone: { target: 'ready', actions: assign({ options: ({ event }) => event.output }) },
        onError: 'unavailable',
      },
    },
    ready: {},
    unavailable: {},
  },
});
