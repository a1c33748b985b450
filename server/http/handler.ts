import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../shared/contract/product';
import type { Config } from '../config';
import type { Queryable } from '../db/client';
import type { TransactionEvents } from '../db/transaction-events';
import type { Principal, TokenVerifier } from './auth';
import type { RateLimiters } from './rate-limit';
import type { JobQueue } from '../jobs/queue';

/** Everything a handler may reach: injected once in buildApp, replaced in tests. */
export interface AppDeps {
  config: Config;
  /**
   * The database; inside a request with an Idempotency-Key, the transaction that also
   * remembers the answer. Run writes through inTransaction (server/db/transaction.ts).
   */
  db: Queryable;
  verifyToken: TokenVerifier;
  now: () => Date;
  /** Shared counters for abuse-prone calls (PostgreSQL, or memory for the embedded database). */
  rateLimits: RateLimiters;
  /** Background jobs (pg-boss on the same database): queue them in the handler's transaction. */
  jobs: JobQueue;
  /** What features announce inside a change's transaction for others to follow. */
  events: TransactionEvents;
}

export type OperationId = keyof operations;
type Op<O extends OperationId> = operations[O];

type Part<T, K extends string> = T extends { [P in K]?: infer V } ? NonNullable<V> : never;
export type Query<O extends OperationId> = Part<Op<O>['parameters'], 'query'>;
export type Params<O extends OperationId> = Part<Op<O>['parameters'], 'path'>;
export type Body<O extends OperationId> =
  Op<O> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : undefined;

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Responses<O extends OperationId> = Op<O>['responses'];
/** The 2xx JSON bodies an operation may answer with (void for 204). */
export type Result<O extends OperationId> =
  | JsonOf<Responses<O>[Extract<keyof Responses<O>, 200 | 201 | 202>]>
  | (204 extends keyof Responses<O> ? void : never);

export interface HandlerContext<O extends OperationId> {
  params: Params<O>;
  query: Query<O>;
  body: Body<O>;
  /** The signed-in caller; null only for public operations. */
  principal: Principal;
  deps: AppDeps;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<O extends OperationId> = (ctx: HandlerContext<O>) => Promise<Result<O>>;
export type Handlers = { [O in OperationId]?: Handler<O> };

/** Keeps each feature's handler map checked against the contract. */
export const defineHandlers = <H extends Handlers>(handlers: H): H => handlers;
