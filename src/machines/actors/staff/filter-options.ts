import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { FilterOptions } from '../../staff-filter-options.machine';

/**
 * Coaches, insurers and campaigns for the filters. Coaches only for the roles that may list
 * them (`GET /coach`: admins and onboarding managers); a coach filters their own anyway.
 */
export const loadFilterOptionsActor = (api: ApiClient) =>
  fromPromise<FilterOptions, { withCoaches: boolean }>(async ({ input, signal }) => {
    const coaches: FilterOptions['coaches'] = [];
    const loadCoaches = async () => {
      for (let page = 1; page <= 50; page++) {
        const { data } = await api.GET('/coach', {
          params: { query: { page, limit: 100 } },
          signal,
        });
        for (const c of data!.coaches) {
          coaches.push({
            id: c.id,
            name: [c.title, c.firstName, c.lastName].filter(Boolean).join(' '),
            active: c.active,
          });
        }
        if (page * 100 >= data!.itemCount) break;
      }
    };
    const [insurers, campaigns] = await Promise.all([
      api.GET('/admin/insurers', { signal }),
      api.GET('/admin/campaigns', { signal }),
      input.withCoaches ? loadCoaches() : Promise.resolve(),
    ]);
    return {
      coaches,
      insurers: insurers.data!.insurers.map((i) => i.name),
      campaigns: campaigns.data!.campaigns.map((c) => ({ code: c.code, name: c.name })),
      inactiveInsurers: insurers.data!.insurers.filter((i) => !i.active).map((i) => i.name),
      inactiveCampaigns: campaigns.data!.campaigns.filter((c) => !c.active).map((c) => c.code),
    };
  });
