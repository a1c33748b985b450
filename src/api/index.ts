export { createApiClient, type ApiClient, type ApiClientOptions } from './client';
export {
  ApiError,
  NetworkError,
  isAbortError,
  isApiError,
  isNetworkError,
  parseProblem,
  type FieldError,
  type ProblemDetails,
} from './errors';
export { bearerMiddleware, errorMiddleware, type TokenGetter } from './middleware';
