import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';

// A caller's users row is reused for PRINCIPAL_CACHE_MS; the instance that changes the row
// forgets it at once, other instances (simulated by a direct database write) after the TTL.
let api: Api;
beforeAll(async () => {
  api = await createApi({ env: { PRINCIPAL_CACHE_MS: '300' } });
});
afterAll(() => api.close());

describe('the cached caller', () => {
  it('is forgotten at once when an admin deactivates the account through the API', async () => {
    const admin = await api.signIn('ADMIN');
    const coach = await api.signIn('COACH');
    expect((await api.call('GET', '/api/appointments', { as: coach })).status).toBe(200);
    const res = await api.call('POST', `/api/user/${coach.userId}`, {
      as: admin,
      body: { active: false },
    });
    expect(res.status).toBe(200);
    const after = await api.call('GET', '/api/appointments', { as: coach });
    expect(after.status).toBe(403);
    expect(after.body.code).toBe('inactive_user');
  });

  it('sees a change made elsewhere once the cache time has passed', async () => {
    const coach = await api.signIn('COACH');
    expect((await api.call('GET', '/api/appointments', { as: coach })).status).toBe(200);
    await api.database.db.update(users).set({ active: false }).where(eq(users.id, coach.userId));
    expect((await api.call('GET', '/api/appointments', { as: coach })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await api.call('GET', '/api/appointments', { as: coach })).status).toBe(403);
  });
});
