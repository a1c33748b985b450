import type { FastifyReply } from 'fastify';
import type { OperationId, Result } from './handler';

/**
 * Answers with JSON that is already written (by PostgreSQL, for a long list), so Fastify
 * sends it as it is instead of serialising it again. Typed as the operation's result: the
 * text must be that result's JSON, which the integration tests check against the contract
 * (the test app validates every answer).
 */
export function jsonAnswer<O extends OperationId>(reply: FastifyReply, json: string): Result<O> {
  reply.type('application/json; charset=utf-8');
  return json as unknown as Result<O>;
}
