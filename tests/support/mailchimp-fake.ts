import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

/**
 * A local stand-in for the two Marketing API calls the list sync makes (`GET /3.0/lists/{id}`,
 * `PUT /3.0/lists/{id}/members/{md5}`), on 127.0.0.1. An existing member keeps its status
 * (status_if_new only applies to new ones), as at Mailchimp; an address containing "invalid"
 * is refused the way Mailchimp refuses a fake-looking one.
 */
export async function startMailchimpFake(options: { apiKey: string; listId: string }) {
  const requests: FakeRequest[] = [];
  const members = new Map<string, { email: string; status: string; merge: unknown }>();
  const expectedAuth = 'Basic ';

  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  };
  const keyOf = (authorization: string | undefined) => {
    if (!authorization?.startsWith(expectedAuth)) return null;
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1);
  };

  const server = createServer(async (req, res) => {
    const body = await read(req);
    const path = req.url ?? '';
    requests.push({
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      body,
    });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (keyOf(req.headers.authorization) !== options.apiKey) {
      return send(401, {
        title: 'API Key Invalid',
        status: 401,
        detail: 'Your API key may be invalid.',
      });
    }
    const list = /^\/3\.0\/lists\/([^/?]+)(\/members\/([0-9a-f]{32}))?(\?.*)?$/.exec(path);
    if (!list || decodeURIComponent(list[1]!) !== options.listId) {
      return send(404, {
        title: 'Resource Not Found',
        status: 404,
        detail: 'The requested resource could not be found.',
      });
    }
    if (req.method === 'GET' && !list[2])
      return send(200, { id: options.listId, name: 'Newsletter' });
    if (req.method === 'PUT' && list[3]) {
      const email = String(body?.email_address ?? '');
      if (createHash('md5').update(email.toLowerCase()).digest('hex') !== list[3]) {
        return send(400, {
          title: 'Invalid Resource',
          status: 400,
          detail: 'The subscriber hash does not match.',
        });
      }
      if (email.includes('invalid')) {
        return send(400, {
          title: 'Invalid Resource',
          status: 400,
          detail: 'Please provide a valid email address.',
          errors: [
            { field: 'email_address', message: 'This email address looks fake or invalid.' },
          ],
        });
      }
      const existing = members.get(list[3]);
      const status = existing?.status ?? String(body?.status_if_new);
      members.set(list[3], { email, status, merge: body?.merge_fields });
      return send(200, { id: list[3], email_address: email, status });
    }
    return send(405, { title: 'Method Not Allowed', status: 405 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/3.0`,
    requests,
    members,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
