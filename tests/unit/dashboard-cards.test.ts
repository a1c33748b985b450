// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { ApiClient } from '../../src/api/client';
import { loadDashboardActor } from '../../src/machines/actors/overview';

/** The admin dashboard's cards: what an admin acts on, each with its count and where it leads. */
describe('admin dashboard cards', () => {
  it('counts the undelivered messages and leads to their list', async () => {
    const asked: string[] = [];
    const page = (itemCount: number) => ({
      data: { itemCount, appointments: [], clients: [] },
      response: new Response(),
    });
    const api = {
      GET: (path: string) => {
        asked.push(path);
        if (path === '/billable-items') {
          return Promise.resolve({
            data: {
              itemCount: 0,
              statusTotals: { pending: { count: 4 }, validation_failed: { count: 1 } },
            },
          });
        }
        if (path === '/communications/failed')
          return Promise.resolve({ data: { itemCount: 3, communications: [] } });
        return Promise.resolve(page(2));
      },
    } as unknown as ApiClient;
    const overview = await toPromise(
      createActor(loadDashboardActor(api), { input: { nowMs: Date.now() } }).start(),
    );
    expect(asked).toContain('/communications/failed');
    const failed = overview.cards.find((c) => c.id === 'failedMessages');
    expect(failed).toEqual({
      id: 'failedMessages',
      count: 3,
      capped: false,
      href: '/messages/failed',
      waiting: true,
    });
    expect(overview.cards.map((c) => c.id)).toEqual([
      'todayAppointments',
      'weekAppointments',
      'openClients',
      'pendingBillableItems',
      'validationFailedItems',
      'failedMessages',
      'users',
      'coaches',
    ]);
  });
});
