import http from 'node:http';
import https from 'node:https';
import { assertWebhookUrl, guardedLookup, refusalOf, TargetRefused } from '../webhooks/index';

/**
 * The `fetch` the CalDAV client talks through: node:http(s) with the webhooks' address guard
 * on every request, redirects included. A name is resolved when the connection is made and
 * refused if any of its addresses is internal (unless the practice allows private servers),
 * and the connection goes to the very address that was checked: a name that pointed at a
 * public server when the coach connected and points inside the network now (DNS rebinding)
 * is refused at the next sync or write, not only when it was saved.
 *
 * Connections are kept alive per session (one agent per sign-in), so a sync's requests reuse
 * the checked connection; `close` ends them.
 */
export interface GuardedFetch {
  fetch: typeof fetch;
  close(): void;
}

/** The largest answer read (a calendar of several years is a few megabytes). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export function guardedFetch(allowPrivate: boolean): GuardedFetch {
  const lookup = guardedLookup(allowPrivate);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 4, lookup }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 4, lookup }),
  };

  async function once(url: URL, init: RequestInit): Promise<Response> {
    // A refused address fails like one that does not answer (fetch's TypeError), as the
    // lookup's refusal of a name does.
    try {
      const literal = assertWebhookUrl(url);
      const refusal = literal ? refusalOf(literal, allowPrivate) : null;
      if (refusal) throw new TargetRefused(refusal);
    } catch (error) {
      throw new TypeError('fetch failed', { cause: error });
    }
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = typeof init.body === 'string' ? init.body : undefined;
    if (init.body != null && body === undefined) throw new TypeError('only text bodies are sent');
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const client = url.protocol === 'https:' ? https : http;
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          agent: agents[url.protocol as 'http:' | 'https:'],
          ...(signal ? { signal } : {}),
        },
        (answer) => {
          const chunks: Buffer[] = [];
          let size = 0;
          answer.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) {
              answer.destroy(new TypeError('the calendar server answered too much'));
              return;
            }
            chunks.push(chunk);
          });
          // A connection that breaks off mid-answer is a server that did not answer.
          answer.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
          answer.on('end', () => {
            const status = answer.statusCode ?? 0;
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(answer.headers)) {
              if (value === undefined) continue;
              for (const v of Array.isArray(value) ? value : [value])
                responseHeaders.append(name, v);
            }
            const response = new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), {
              status,
              statusText: answer.statusMessage ?? '',
              headers: responseHeaders,
            });
            Object.defineProperty(response, 'url', { value: url.href });
            resolve(response);
          });
        },
      );
      // Refusals and network failures reach the caller as fetch reports them: a TypeError
      // with the cause (the CalDAV layer sorts it into "unreachable"), timeouts as they are.
      request.on('error', (error) =>
        reject(
          error.name === 'AbortError' || error.name === 'TimeoutError'
            ? (signal?.reason ?? error)
            : new TypeError('fetch failed', { cause: error }),
        ),
      );
      request.end(body);
    });
  }

  const guarded = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; ; hop++) {
      const response = await once(url, { ...init, method, body: body ?? null });
      const location = response.headers.get('location');
      if (
        init.redirect === 'manual' ||
        ![301, 302, 303, 307, 308].includes(response.status) ||
        !location
      ) {
        return response;
      }
      if (hop >= MAX_REDIRECTS) throw new TypeError('fetch failed: too many redirects');
      const next = new URL(location, url);
      // As fetch does: the credentials never follow a redirect to another origin.
      if (next.origin !== url.origin) {
        const headers = new Headers(init.headers);
        headers.delete('authorization');
        init = { ...init, headers };
      }
      url = next;
      // As fetch does: 303 (and 301/302 after a POST) go on as GET without a body.
      if (response.status === 303 || (method === 'POST' && response.status !== 307)) {
        method = 'GET';
        body = undefined;
      }
    }
  };

  return {
    fetch: guarded as typeof fetch,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
