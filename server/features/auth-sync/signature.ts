import { createHmac, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpProblem, unauthorized } from '../../http/problem';

const OPERATION = 'receiveAuthUserEvent';
const MAX_BYTES = 64 * 1024;
const SIGNATURE_HEADER = 'x-auth-signature';
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/**
 * The scheme the provider publishes (receiveAuthUserEvent, and the userEvent webhook of
 * openapi/auth.yaml): `sha256=<hex HMAC-SHA256 of the exact body bytes with the shared
 * secret>`, compared in constant time. Checked here, not with the provider's code, as a
 * receiver of a provider running elsewhere would.
 */
export function verifyAuthEventSignature(secret: string, body: Buffer | string, header: unknown) {
  if (typeof header !== 'string') return false;
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const expected = Buffer.from(`sha256=${hex}`);
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

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
  if (
    !secret ||
    !raw ||
    !verifyAuthEventSignature(secret, raw, request.headers[SIGNATURE_HEADER])
  ) {
    throw unauthorized('The signature is missing or wrong');
  }
}
