import { createHash } from 'node:crypto';

/**
 * The two calls of Mailchimp's Marketing API (3.0) the list sync makes, over fetch with a
 * configurable base URL: the official package builds its host from the key and cannot be
 * pointed at a local fake. Basic auth with any user name and the key.
 */
export interface MailchimpSettings {
  apiKey: string;
  listId: string;
  /** e.g. https://us19.api.mailchimp.com/3.0; unset: from the key's data-centre suffix. */
  baseUrl?: string | undefined;
  timeoutMs?: number;
}

export interface MemberInput {
  email: string;
  firstName: string;
  lastName: string;
  statusIfNew: 'subscribed' | 'pending';
}

export type MailchimpResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Mailchimp's member id ("subscriber hash"): MD5 of the trimmed, lower-cased address. */
export const subscriberHash = (email: string) =>
  createHash('md5').update(email.trim().toLowerCase()).digest('hex');

/** `https://<dc>.api.mailchimp.com/3.0` from a key `…-<dc>`; null when the key has no dc. */
export function defaultBaseUrl(apiKey: string): string | null {
  const dc = /-([a-z]+\d+)$/.exec(apiKey)?.[1];
  return dc ? `https://${dc}.api.mailchimp.com/3.0` : null;
}

/** Mailchimp answers errors as problem JSON {title, status, detail, errors?[]}. */
async function reasonOf(response: Response): Promise<string> {
  const text = (await response.text()).slice(0, 4000);
  try {
    const problem = JSON.parse(text) as {
      title?: string;
      detail?: string;
      errors?: { field?: string; message?: string }[];
    };
    const fields = (problem.errors ?? [])
      .map((e) => [e.field, e.message].filter(Boolean).join(': '))
      .join('; ');
    return [`HTTP ${response.status}`, problem.title, problem.detail, fields]
      .filter(Boolean)
      .join(' – ')
      .slice(0, 500);
  } catch {
    return `HTTP ${response.status}`;
  }
}

export function createMailchimpClient(settings: MailchimpSettings) {
  const base = (settings.baseUrl ?? defaultBaseUrl(settings.apiKey) ?? '').replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`sprechstunde:${settings.apiKey}`).toString('base64')}`;
  const list = `${base}/lists/${encodeURIComponent(settings.listId)}`;

  async function call<T>(method: string, url: string, body?: unknown): Promise<MailchimpResult<T>> {
    try {
      const response = await fetch(url, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(settings.timeoutMs ?? 15_000),
      });
      if (!response.ok) return { ok: false, reason: await reasonOf(response) };
      return { ok: true, value: (await response.json()) as T };
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      return {
        ok: false,
        reason: name === 'TimeoutError' ? 'Zeitüberschreitung' : `Keine Verbindung (${name})`,
      };
    }
  }

  return {
    /** `GET /lists/{id}`: the key works and the list exists (checked before a sync starts). */
    checkList: () => call<{ id: string; name?: string }>('GET', `${list}?fields=id,name`),
    /**
     * `PUT /lists/{id}/members/{hash}`: adds the member with `status_if_new`, or updates an
     * existing one's address and merge fields without touching its status (an unsubscribed
     * or cleaned member stays so). Answers the member's status on the list.
     */
    upsertMember: (member: MemberInput) =>
      call<{ status: string }>('PUT', `${list}/members/${subscriberHash(member.email)}`, {
        email_address: member.email.trim(),
        status_if_new: member.statusIfNew,
        merge_fields: { FNAME: member.firstName, LNAME: member.lastName },
      }),
  };
}

export type MailchimpClient = ReturnType<typeof createMailchimpClient>;
