import http from 'node:http';
import https from 'node:https';
import { countMessage } from '../../metrics/registry';
import { assertWebhookUrl, guardedLookup, refusalOf, TargetRefused } from './target-guard';

export const SNIPPET_BYTES = 1024;

export interface PostResult {
  /** null when no answer came (refused target, network error, timeout). */
  status: number | null;
  retryAfter: string | undefined;
  /** The answer's first kilobyte. */
  snippet: string | null;
  durationMs: number;
  error: string | null;
  /** The target was refused by the address rules (nothing was sent). */
  refused: boolean;
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

/**
 * POSTs the body once: no redirects followed (a 3xx is the answer), the whole exchange within
 * `timeoutMs`, the connection only to an address the rules allow, only the first kilobyte of
 * the answer read. The outcome is counted for /metrics.
 */
export async function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostResult> {
  const result = await postOnce(target, headers, body, options);
  const accepted = result.status !== null && result.status >= 200 && result.status < 300;
  countMessage('webhook', result.refused ? 'refused' : accepted ? 'sent' : 'failed');
  return result;
}

async function postOnce(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const done = (partial: Omit<PostResult, 'durationMs'>): PostResult => ({
    ...partial,
    durationMs: Math.round(performance.now() - started),
  });
  const failed = (error: unknown) =>
    done({
      status: null,
      retryAfter: undefined,
      snippet: null,
      error: error instanceof Error ? error.message : String(error),
      refused: error instanceof TargetRefused,
    });

  let url: URL;
  try {
    url = new URL(target);
    const literal = assertWebhookUrl(url);
    const refusal = literal ? refusalOf(literal, options.allowPrivate) : null;
    if (refusal) throw new TargetRefused(refusal);
  } catch (error) {
    return failed(error);
  }

  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Sprechstunde-Webhooks/1',
        },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () =>
          finish(
            done({
              status: response.statusCode ?? null,
              retryAfter: response.headers['retry-after'],
              snippet: Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8'),
              error: null,
              refused: false,
            }),
          );
        response.on('data', (chunk: Buffer) => {
          if (size >= SNIPPET_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          // Enough read: the rest of a large answer is not waited for.
          if (size >= SNIPPET_BYTES) {
            answer();
            response.destroy();
          }
        });
        response.on('end', answer);
        response.on('error', (error) => finish(failed(error)));
      },
    );
    const timer = setTimeout(() => {
      finish(failed(new Error(`no answer within ${options.timeoutMs} ms`)));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error) => finish(failed(error)));
    request.end(body);
  });
}
