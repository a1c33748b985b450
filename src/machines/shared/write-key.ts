/**
 * The Idempotency-Key of a creating call and the body it went out with. Sent again with the
 * same body (a retry after a 503 or a lost answer), it keeps its key, so the server makes one
 * row; a changed body is another request and gets a new key.
 */
export interface WriteKey {
  key: string;
  body: string;
}

export function keyFor(previous: WriteKey | null, body: unknown): WriteKey {
  const json = JSON.stringify(body);
  return previous?.body === json ? previous : { key: crypto.randomUUID(), body: json };
}
