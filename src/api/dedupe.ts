/**
 * Identical reads share one answer (specification, "Data fetching": dedupe 2 s). A GET that
 * matches one started less than `windowMs` ago — same URL, same caller (Authorization), same
 * Accept — gets a copy of that request's answer instead of a request of its own: while it is
 * still under way, or after it succeeded. Lists opened twice in a row, a view and its summary
 * asking for the same page, a focus reload right after the first load: one request.
 *
 * - Any other method (a change) forgets every shared answer, so a list read after a save is
 *   read again.
 * - A failed answer (network error, non-2xx) is shared only with the calls that were already
 *   waiting for it; the next call asks again ("Erneut versuchen" always sends a request).
 * - `cache: 'no-store'` (or `'reload'`) on a call opts out: polling that must see progress.
 * - Each caller's AbortSignal stops only its own wait; the shared request runs on for the
 *   others (a stopped actor is no failure for the next one).
 */

export const DEDUPE_WINDOW_MS = 2_000;

interface Shared {
  startedAt: number;
  answer: Promise<Response>;
  /** Set once the answer failed: it is then shared with no new caller. */
  failed: boolean;
}

export interface DedupeOptions {
  windowMs?: number;
  /** Milliseconds clock (tests). */
  now?: () => number;
}

const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

/** `promise`, rejected early with the signal's reason when the caller aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | null): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // Unchanged: an abort of the request itself must stay an AbortError.
        reject(error as Error);
      },
    );
  });
}

export function dedupingFetch(
  fetch: typeof globalThis.fetch,
  options: DedupeOptions = {},
): typeof globalThis.fetch {
  const windowMs = options.windowMs ?? DEDUPE_WINDOW_MS;
  const now = options.now ?? (() => Date.now());
  const shared = new Map<string, Shared>();

  const forgetOld = (at: number) => {
    for (const [key, entry] of shared) {
      if (at - entry.startedAt >= windowMs) shared.delete(key);
    }
  };

  return (input, init) => {
    const request =
      input instanceof Request && init === undefined ? input : new Request(input, init);
    if (request.method !== 'GET') {
      shared.clear();
      return fetch(request);
    }
    if (request.cache === 'no-store' || request.cache === 'reload') return fetch(request);
    const at = now();
    forgetOld(at);
    const key = [
      request.url,
      request.headers.get('authorization') ?? '',
      request.headers.get('accept') ?? '',
    ].join('\n');
    let entry = shared.get(key);
    if (!entry || entry.failed) {
      // The shared request has no caller's signal: one caller giving up stops no one else.
      const answer = fetch(new Request(request, { signal: new AbortController().signal }));
      const started: Shared = { startedAt: at, answer, failed: false };
      answer.then(
        (response) => {
          if (!response.ok) started.failed = true;
        },
        () => {
          started.failed = true;
        },
      );
      shared.set(key, started);
      entry = started;
    }
    // Every caller reads its own copy of the body; the kept original is never read.
    return untilAborted(
      entry.answer.then((response) => response.clone()),
      request.signal,
    );
  };
}
