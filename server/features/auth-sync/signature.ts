import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpProblem, unauthorized } from '../../http/problem';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../../auth-provider/user-events';

const OPERATION = 'receiveAuthUserEvent';
const MAX_BYTES = 64 * 1024;
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/**
 * The provider's webhook is signed over the exact body bytes, which the JSON parser does not
 * keep: for that one operation the body is read here first, kept for the signature check, and
 * the same bytes handed on to the parser.
 */
export function registerAuthEventRawBody(app: FastifyInstance) {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.routeOptions.config?.operation?.operationId !== OPERATION) return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size > MAX_BYTES) throw new HttpProblem(413, 'payload_too_large', 'Payload Too Large');
      chunks.push(buffer);
    }
    const raw = Buffer.concat(chunks);
    rawBodies.set(request, raw);
    const replay = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
    replay.receivedEncodedLength = raw.length;
    return replay;
  });
}

/** 401 unless the body carries a valid signature (no secret configured: always 401). */
export function assertSigned(request: FastifyRequest, secret: string | undefined) {
  const raw = rawBodies.get(request);
  if (!secret || !raw || !verifyWebhookSignature(secret, raw, request.headers[WEBHOOK_SIGNATURE_HEADER])) {
    throw unauthorized('The signature is missing or wrong');
  }
}
