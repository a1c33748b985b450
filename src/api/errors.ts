/**
 * Errors thrown by the API client (see middleware.ts). Machines receive them in
 * `xstate.error.actor.*` events and keep them in context; views translate `code`.
 */

/** One invalid input, from a problem+json body (400 with the field named). */
export interface FieldError {
  /** Path of the field as sent by the server, e.g. `body.email` (our contract) or `/body/email`. */
  field: string;
  /** Stable machine-readable code, e.g. `required`, `too_long`; `invalid` when the server sent none. */
  code: string;
  /** Server's (English) explanation; for logs, not for display. */
  message?: string;
  /** The record the error is about (a batch action names each refused id). */
  id?: string;
  /** That record's status when the request was refused (batch actions). */
  status?: string;
}

/** The parts of an RFC 9457 problem document the UI uses. */
export interface ProblemDetails {
  status: number;
  /** Stable code the UI translates; `http_<status>` when the body carried none. */
  code: string;
  title?: string;
  detail?: string;
  type?: string;
  instance?: string;
  /** The server's request id, for support requests and logs. */
  requestId?: string;
  fieldErrors: FieldError[];
}

/** The server answered with a non-2xx status. */
export class ApiError extends Error implements ProblemDetails {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly title?: string;
  readonly detail?: string;
  readonly type?: string;
  readonly instance?: string;
  readonly requestId?: string;
  readonly fieldErrors: FieldError[];
  /** Request method and URL, for logs. */
  readonly request?: { method: string; url: string };

  constructor(problem: ProblemDetails, request?: { method: string; url: string }) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status} (${problem.code})`);
    this.status = problem.status;
    this.code = problem.code;
    if (problem.title !== undefined) this.title = problem.title;
    if (problem.detail !== undefined) this.detail = problem.detail;
    if (problem.type !== undefined) this.type = problem.type;
    if (problem.instance !== undefined) this.instance = problem.instance;
    if (problem.requestId !== undefined) this.requestId = problem.requestId;
    this.fieldErrors = problem.fieldErrors;
    if (request) this.request = request;
  }

  /** The field errors for one field: `email` matches `email`, `body.email` and `/body/email`. */
  errorsFor(field: string): FieldError[] {
    return this.fieldErrors.filter(
      (e) => e.field === field || e.field.endsWith(`.${field}`) || e.field.endsWith(`/${field}`),
    );
  }
}

/** The request never got an answer: offline, DNS, connection refused, CORS, TLS. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly code = 'network_error';
  readonly request?: { method: string; url: string };

  constructor(
    message: string,
    options?: { cause?: unknown; request?: { method: string; url: string } },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.request) this.request = options.request;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

/** True for the error fetch throws when its AbortSignal fires (an actor was stopped). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error.name === 'AbortError' || error.name === 'TimeoutError')
  );
}

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

function toFieldError(raw: unknown): FieldError | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const field = asString(r.field) ?? asString(r.pointer) ?? asString(r.name) ?? asString(r.path);
  if (field === undefined) return undefined;
  const message = asString(r.message) ?? asString(r.detail) ?? asString(r.reason);
  const id = asString(r.id);
  const status = asString(r.status);
  return {
    field,
    code: asString(r.code) ?? 'invalid',
    ...(message === undefined ? {} : { message }),
    ...(id === undefined ? {} : { id }),
    ...(status === undefined ? {} : { status }),
  };
}

/**
 * Reads a problem document (openapi/product.yaml `Problem`: type, title, status, code, detail,
 * instance, requestId, errors[{ field, code, message }]). Lenient, since a proxy or the auth
 * provider may answer too: field errors may also come as `fieldErrors` or RFC 9457's
 * `invalid-params`, items with `field` | `pointer` | `name`.
 */
export function parseProblem(status: number, body: unknown): ProblemDetails {
  const b = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const rawErrors = [b.errors, b.fieldErrors, b['invalid-params']].find(Array.isArray) ?? [];
  const fieldErrors = (rawErrors as unknown[])
    .map(toFieldError)
    .filter((e): e is FieldError => e !== undefined);
  const problem: ProblemDetails = {
    status, // the HTTP status is authoritative; the body's `status` is advisory (RFC 9457)
    code: asString(b.code) ?? `http_${status}`,
    fieldErrors,
  };
  const title = asString(b.title);
  const detail = asString(b.detail);
  const type = asString(b.type);
  const instance = asString(b.instance);
  const requestId = asString(b.requestId);
  if (title !== undefined) problem.title = title;
  if (detail !== undefined) problem.detail = detail;
  if (type !== undefined) problem.type = type;
  if (instance !== undefined) problem.instance = instance;
  if (requestId !== undefined) problem.requestId = requestId;
  return problem;
}

/** Builds an ApiError from a non-2xx response; reads a clone, the original body stays unread. */
export async function apiErrorFromResponse(
  response: Response,
  request?: Request,
): Promise<ApiError> {
  let body: unknown = undefined;
  const type = response.headers.get('Content-Type') ?? '';
  if (/\bjson\b|\+json\b/i.test(type)) {
    try {
      body = await response.clone().json();
    } catch {
      body = undefined;
    }
  }
  return new ApiError(
    parseProblem(response.status, body),
    request ? { method: request.method, url: request.url } : undefined,
  );
}
