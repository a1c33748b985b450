import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

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
};

function toProblem(error: FastifyError): HttpProblem {
  if (error instanceof HttpProblem) return error;
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
    return new HttpProblem(400, 'invalid_json', 'Bad Request', 'The request body is not valid JSON', [
      { field: 'body', code: 'invalid_json', message: 'not valid JSON' },
    ]);
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
  return reply.code(problem.status).type('application/problem+json').send(body);
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const problem = toProblem(error);
  if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
  return sendProblem(request, reply, problem);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(
    request,
    reply,
    new HttpProblem(404, 'route_not_found', 'Not Found', 'No such API route'),
  );
}
