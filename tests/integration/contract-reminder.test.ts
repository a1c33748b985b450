import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import {
  expectProblem,
  expectStatus,
  newClient,
  SOME_ID,
  startApi,
  unique,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;
let otherCoach: Awaited<ReturnType<Api['signIn']>>;

beforeAll(async () => {
  ({
    api,
    callers: [admin, coach, otherCoach],
  } = await startApi({}, 'ADMIN', 'COACH', 'COACH'));
});
afterAll(() => api?.close());

const remind = (id: string, as: Caller) =>
  api.call('POST', `/api/admin/client/${id}/contract/reminder`, { as });

async function unsignedClient(body: Record<string, unknown> = {}) {
  return newClient(api, admin, {
    email: `${unique('v')}@klient.example`,
    hasNotSignedRequiredContract: true,
    coachedById: coach.coachId,
    ...body,
  });
}

describe('POST /admin/client/{clientId}/contract/reminder', () => {
  it('mails the client a German reminder, records when, and lists it with their messages', async () => {
    const client = await unsignedClient();
    const res = await remind(client.id, coach);
    expectStatus(res, 202);
    const sentAt = res.body.sentAt as string;

    const after = await api.call('GET', `/api/admin/client/${client.id}`, { as: admin });
    expectStatus(after, 200);
    expect(after.body.contractReminderSentAt).toBe(sentAt);

    const messages = await api.call('GET', `/api/communications/client/${client.id}`, {
      as: admin,
    });
    expectStatus(messages, 200);
    const mail = (messages.body.communications as Array<Record<string, unknown>>).find(
      (m) => m.template === 'client_contract_reminder',
    );
    expect(mail).toMatchObject({ channel: 'email', recipient: client.email });
    expect(String(mail!.subject)).toContain('Bitte unterschreiben Sie Ihre Vereinbarung');
  });

  it('refuses a signed contract, a client without e-mail, and a third reminder the same day', async () => {
    const signed = await unsignedClient({ hasNotSignedRequiredContract: false });
    expectProblem(await remind(signed.id, admin), 409, 'contract_already_signed');

    const noMail = await unsignedClient({ email: null });
    expectProblem(await remind(noMail.id, admin), 409, 'no_contact');

    const client = await unsignedClient();
    expectStatus(await remind(client.id, admin), 202);
    expectStatus(await remind(client.id, admin), 202);
    expect((await remind(client.id, admin)).status).toBe(429);
  });

  it('answers 404 for an unknown client and for another coach', async () => {
    expectProblem(await remind(SOME_ID, admin), 404);
    const client = await unsignedClient();
    expectProblem(await remind(client.id, otherCoach), 404);
    const after = await api.call('GET', `/api/admin/client/${client.id}`, { as: admin });
    expect(after.body.contractReminderSentAt).toBeNull();
  });
});
