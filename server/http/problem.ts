import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { TOO_DEEP, UNSTORABLE_TEXT } from './validation';
import './allowed-methods';

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** An error the API answers with as application/problem+json; `code` is stable for the UI. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    /** Response headers that belong to the problem, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? title);
  }
}

export const badRequest = (field: string, code: string, message: string) =>
  new HttpProblem(400, 'validation_failed', 'Bad Request', message, [{ field, code, message }]);
export const notFound = (what = 'resource') =>
  new HttpProblem(404, 'not_found', 'Not Found', `${what} not found`);
export const conflict = (code: string, detail: string) =>
  new HttpProblem(409, code, 'Conflict', detail);
export const forbidden = (code = 'forbidden', detail?: string) =>
  new HttpProblem(403, code, 'Forbidden', detail);
export const unauthorized = (detail?: string) =>
  new HttpProblem(401, 'unauthorized', 'Unauthorized', detail);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpProblem(
    429,
    'rate_limited',
    'Too Many Requests',
    `Too many attempts; try again in ${retryAfterSeconds} s`,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
  );
export const notImplemented = (operationId: string) =>
  new HttpProblem(
    501,
    'not_implemented',
    'Not Implemented',
    `${operationId} is part of the contract but not implemented yet`,
  );

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldOf(e: AjvError): string {
  const base = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const extra =
    (e.params.missingProperty as string | undefined) ??
    (e.params.additionalProperty as string | undefined);
  return [base, extra].filter(Boolean).join('.') || '(root)';
}

const codeOf: Record<string, string> = {
  required: 'value_missing',
  additionalProperties: 'unknown_field',
  maxLength: 'value_too_long',
  minLength: 'value_too_short',
  maximum: 'value_too_large',
  minimum: 'value_too_small',
  format: 'value_invalid_format',
  pattern: 'value_invalid_format',
  enum: 'value_not_allowed',
  type: 'value_wrong_type',
  minProperties: 'value_missing',
  [UNSTORABLE_TEXT]: 'value_invalid_character',
  [TOO_DEEP]: 'value_too_deep',
};

/** The SQLSTATE of a database error, looking through Drizzle's wrapper. */
function sqlState(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

// Constraint violations that slip past the handlers' checks (races) are the caller's
// conflict, not a server fault.
const DB_PROBLEMS: Record<string, () => HttpProblem> = {
  '23505': () =>
    new HttpProblem(409, 'already_exists', 'Conflict', 'A record with these values exists already'),
  '23503': () =>
    new HttpProblem(
      409,
      'reference_conflict',
      'Conflict',
      'A referenced record does not exist or is still in use',
    ),
  '23P01': () =>
    new HttpProblem(
      409,
      'slot_taken',
      'Conflict',
      'The coach already has an appointment at this time',
    ),
};

/**
 * Errors PostgreSQL raises about a value it was given: class 22 (data exception: text it
 * cannot store, a number or date out of range, text too long for its column, a malformed
 * literal) and class 54 (program limit: a value too large for an index entry). The contract
 * and the central text check (validation.ts) refuse most such input before a handler runs;
 * whatever still gets through is the caller's bad request, not a server fault.
 */
function inputProblem(state: string): HttpProblem | undefined {
  const detail = state.startsWith('22')
    ? 'A value of the request cannot be stored'
    : state.startsWith('54')
      ? 'A value of the request is too large to be stored'
      : undefined;
  return detail ? new HttpProblem(400, 'validation_failed', 'Bad Request', detail) : undefined;
}

/** The violated constraint's name, looking through Drizzle's wrapper. */
function constraintOf(error: unknown): string | undefined {
  for (
    let e = error as { constraint?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
}

/**
 * A feature's own constraints (by the name the schema gives them) and the problem their
 * violation answers: a unique index that backs a handler's own check answers with the check's
 * code when a race slips past the check. Each feature declares its own at its public face and
 * the app hands them all to errorHandlerWith, so this layer knows no feature's tables.
 */
export type ConstraintProblems = Readonly<Record<string, () => HttpProblem>>;

// The database cannot be reached (down, restarting, failing over): the caller may retry
// shortly, so 503 with Retry-After instead of a 500. SQLSTATE 57P01 admin_shutdown, 57P02
// crash_shutdown, 57P03 cannot_connect_now, class 08 connection exceptions; socket errors;
// and the driver's own messages for a dropped connection or a pool connect timeout.
const CONNECTION_STATES = /^(08...|57P0[123])$/;
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;
export const RETRY_AFTER_SECONDS = 5;

/** Whether an error (or one it wraps) says the database cannot be reached. */
export function isConnectionFailure(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (
      typeof e.code === 'string' &&
      (CONNECTION_STATES.test(e.code) || CONNECTION_CODES.has(e.code))
    )
      return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some(isConnectionFailure)) return true;
  }
  return false;
}

export const serviceUnavailable = () =>
  new HttpProblem(
    503,
    'service_unavailable',
    'Service Unavailable',
    'The database cannot be reached; try again shortly',
    undefined,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

function toProblem(error: FastifyError, constraints: ConstraintProblems): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (isConnectionFailure(error)) return serviceUnavailable();
  const constraint = constraintOf(error);
  const known =
    constraint && Object.hasOwn(constraints, constraint) ? constraints[constraint] : undefined;
  if (known) return known();
  const state = sqlState(error);
  if (state && DB_PROBLEMS[state]) return DB_PROBLEMS[state]();
  const input = state ? inputProblem(state) : undefined;
  if (input) return input;
  if (error.validation) {
    const errors = (error.validation as AjvError[]).map((e) => ({
      field: fieldOf(e),
      code: codeOf[e.keyword] ?? 'value_invalid',
      message: e.message ?? 'invalid',
    }));
    const where = error.validationContext ?? 'request';
    return new HttpProblem(
      400,
      'validation_failed',
      'Bad Request',
      `Invalid ${where}: ${errors.map((e) => e.field).join(', ')}`,
      errors,
    );
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new HttpProblem(415, 'unsupported_media_type', 'Unsupported Media Type', error.message);
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new HttpProblem(413, 'payload_too_large', 'Payload Too Large', error.message);
  }
  if (error.statusCode === 400 || error instanceof SyntaxError) {
    return new HttpProblem(
      400,
      'invalid_json',
      'Bad Request',
      'The request body is not valid JSON',
      [{ field: 'body', code: 'invalid_json', message: 'not valid JSON' }],
    );
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new HttpProblem(error.statusCode, 'bad_request', 'Bad Request', error.message);
  }
  return new HttpProblem(500, 'internal_error', 'Internal Server Error');
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: HttpProblem) {
  const body = {
    type: `https://sprechstunde.example/problems/${problem.code}`,
    title: problem.title,
    status: problem.status,
    code: problem.code,
    ...(problem.detail ? { detail: problem.detail } : {}),
    instance: request.url.split('?')[0],
    requestId: String(request.id),
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
  if (problem.headers) reply.headers(problem.headers);
  return reply.code(problem.status).type('application/problem+json').send(body);
}

/** A code worth logging: an SQLSTATE, a system error (ECONNRESET) or a library's code. */
const LOGGABLE_CODE = /^[A-Za-z0-9_]{1,64}$/;
/** A stack frame line ("at fn (file:line:col)"): the lines before the frames are the message. */
const FRAME = /^\s*at /;

/**
 * What of an unexpected error may be logged: its type, its code (the SQLSTATE of a
 * database error) and where it was thrown, for it and its causes. Never its message: a
 * driver error's message and Drizzle's ("Failed query: <sql>\nparams: <values>") hold the
 * statement and its values (names, e-mail addresses, search words), and the message takes
 * up the stack's first lines, so only the lines that are frames go out.
 */
export function loggableError(error: unknown) {
  const chain: Array<{ type: string; code?: string }> = [];
  let frames: string[] | undefined;
  let e = error as { name?: unknown; code?: unknown; stack?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++, e = e.cause as typeof e) {
    const code = typeof e.code === 'string' && LOGGABLE_CODE.test(e.code) ? e.code : undefined;
    chain.push({
      type: typeof e.name === 'string' ? e.name : typeof e,
      ...(code ? { code } : {}),
    });
    frames ??=
      typeof e.stack === 'string'
        ? e.stack
            .split('\n')
            .filter((line) => FRAME.test(line))
            .slice(0, 8)
            .map((line) => line.trim())
        : undefined;
  }
  if (chain.length === 0) return { type: typeof error };
  const [first, ...causes] = chain;
  return {
    type: first!.type,
    code: first!.code ?? sqlState(error) ?? causes.find((c) => c.code)?.code,
    ...(causes.length ? { causes } : {}),
    ...(frames?.length ? { frames } : {}),
  };
}

/**
 * Fastify closes the connection after a body it would not read, and closing a socket with
 * unread data makes the kernel answer the still-sending client with a reset: most clients
 * (curl, browsers) then report the reset, not the 413 that went before it. Instead the
 * connection stays open and the rest of the body is read and dropped, for at most the
 * request timeout (HTTP_REQUEST_TIMEOUT_MS), after which the socket is closed.
 */
function drainRefusedBody(request: FastifyRequest, reply: FastifyReply) {
  reply.removeHeader('connection');
  const raw = request.raw;
  if (raw.complete) return;
  const { requestTimeout } = request.server.initialConfig as { requestTimeout?: number };
  const timer = setTimeout(() => raw.socket?.destroy(), requestTimeout || 30_000);
  const stop = () => clearTimeout(timer);
  raw.once('end', stop);
  raw.once('close', stop);
  raw.on('data', () => {});
  raw.resume();
}

/**
 * Whether the caller's connection ended while its request was still being read: cut by Node
 * at HTTP_REQUEST_TIMEOUT_MS (which answered it 408 itself), or closed by the caller. The
 * body reader then fails with the socket's ECONNRESET, which is not the database's.
 */
function clientCut(error: FastifyError, request: FastifyRequest): 'timeout' | 'closed' | null {
  if (error.code !== 'ECONNRESET' || !request.raw.readableAborted) return null;
  const socket = request.raw.socket as { errored?: { code?: unknown } | null } | null;
  return socket?.errored?.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'timeout' : 'closed';
}

/** The error handler of a server whose features' constraints answer as `constraints` say. */
export function errorHandlerWith(constraints: ConstraintProblems = {}) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    handleError(error, request, reply, constraints);
}

/** The error handler of a server with no feature constraints of its own (the auth provider). */
export const errorHandler = errorHandlerWith();

function handleError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  constraints: ConstraintProblems,
) {
  const operation = request.routeOptions.config.operation?.operationId;
  const cut = clientCut(error, request);
  if (cut) {
    // The caller's doing, not a fault here; the socket is gone, so the answer goes nowhere.
    request.log.info(
      { operation, cut },
      cut === 'timeout'
        ? 'client cut: its request was not complete within HTTP_REQUEST_TIMEOUT_MS (408)'
        : 'client closed the connection before its request was complete',
    );
    return sendProblem(
      request,
      reply,
      cut === 'timeout'
        ? new HttpProblem(408, 'request_timeout', 'Request Timeout')
        : new HttpProblem(400, 'request_incomplete', 'Bad Request'),
    );
  }
  const problem = toProblem(error, constraints);
  if (problem.status === 413) drainRefusedBody(request, reply);
  if (problem.status >= 500) {
    const context = { operation, status: problem.status };
    // An unreachable database is logged once per outage, not once per refused request
    // (`databaseOutage`: outage-log.ts, decorated by the app and the stand-alone provider).
    const outage = request.server.databaseOutage;
    if (!(problem.status === 503 && outage?.connectionFailure(error, context))) {
      request.log.error({ ...context, error: loggableError(error) }, 'request failed');
    }
  }
  return sendProblem(request, reply, problem);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  // Fastify finds no route for a path it has under another method either: that is a 405.
  const allowed = request.server.allowedMethods?.(request.url) ?? [];
  // A route that answers "not here" itself (an unconfigured /metrics) is a 404, not a 405.
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    return sendProblem(
      request,
      reply,
      new HttpProblem(
        405,
        'method_not_allowed',
        'Method Not Allowed',
        `${request.method} is not a method of this route`,
        undefined,
        { allow: allowed.join(', ') },
      ),
    );
  }
  return sendProblem(
    request,
    reply,
    new HttpProblem(404, 'route_not_found', 'Not Found', 'No such API route'),
  );
}

/**
 * Fastify's logger options for both servers (the app and the stand-alone auth provider):
 * personal data stays out of the logs, so no headers, bodies or query strings, and an error
 * object Fastify or a library logs (`err`, `error`) goes out as loggableError.
 */
export const loggerOptions = (level: string) => ({
  level,
  redact: ['req.headers.authorization', 'req.headers.cookie'],
  serializers: {
    // Fastify's type asks for pino's own shape (with message and stack): the point is to leave those out.
    err: loggableError as unknown as (err: Error) => {
      type: string;
      message: string;
      stack: string;
    },
    error: (value: unknown) => (value instanceof Error ? loggableError(value) : value),
    req: (req: { method: string; url: string; id: string }) => ({
      method: req.method,
      url: req.url.split('?')[0],
      id: req.id,
    }),
  },
});
