import { HttpProblem } from '../http/problem';
import type { RateLimiter } from '../http/rate-limit';

/** Consumes rate-limit points; answers the seconds to wait when over the limit. */
export async function overLimit(limiter: RateLimiter, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (error) {
    if (error instanceof HttpProblem && error.status === 429) {
      return Number(error.headers?.['retry-after'] ?? 60);
    }
    throw error;
  }
}
