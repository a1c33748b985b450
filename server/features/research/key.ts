import { createHmac } from 'node:crypto';
import { DEV_RESEARCH_PSEUDONYM_KEY, type Config } from '../../config';

/**
 * The development key of the pseudonyms: public (it is in the source), so exports made with it
 * are only as safe as the data they were made from. Used while RESEARCH_PSEUDONYM_KEY is unset
 * outside production, so development and tests get stable pseudonyms without a setting; a
 * production start with it set is refused (config.ts).
 */
export const DEVELOPMENT_RESEARCH_KEY = DEV_RESEARCH_PSEUDONYM_KEY;

/** The pseudonym key from the configuration; null in production while none is set. */
export function researchKey(
  config: Pick<Config, 'RESEARCH_PSEUDONYM_KEY' | 'NODE_ENV'>,
): string | null {
  if (config.RESEARCH_PSEUDONYM_KEY) return config.RESEARCH_PSEUDONYM_KEY;
  return config.NODE_ENV === 'production' ? null : DEVELOPMENT_RESEARCH_KEY;
}

/** A client's pseudonym: HMAC-SHA256 of `client:<id>` with the key, hex, first 16 characters. */
export const pseudonymizer = (key: string) => (clientId: string) =>
  createHmac('sha256', key).update(`client:${clientId}`).digest('hex').slice(0, 16);
