import { expect } from 'vitest';

/**
 * The product API as a signed-in person calls it beside the browser (setting up data, checking
 * what the page did): JSON in and out, a fresh Idempotency-Key for each body, 200 expected.
 */
export const e2eApi =
  (app: { readonly baseUrl: string }, token: () => string) =>
  async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${app.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token()}`,
        ...(body
          ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }
          : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    expect(res.status, `${method} ${path}`).toBe(200);
    return res.json();
  };
