import type { Config } from '../../config';
import { keyringOf, openSecret, sealSecret } from '../webhooks/index';

/**
 * CalDAV app passwords at rest: sealed with the webhook secrets' keyring (AES-256-GCM, key
 * from WEBHOOK_SECRET_KEY, the previous key still opens), bound to the coach, so a value
 * copied to another coach's row does not open.
 */
type KeyConfig = Pick<Config, 'WEBHOOK_SECRET_KEY' | 'WEBHOOK_SECRET_KEY_PREVIOUS'>;

const bindingOf = (coachId: string) => `caldav:${coachId}`;

export const sealPassword = (config: KeyConfig, coachId: string, password: string) =>
  sealSecret(keyringOf(config), bindingOf(coachId), password);

export const openPassword = (config: KeyConfig, coachId: string, sealed: string) =>
  openSecret(keyringOf(config), bindingOf(coachId), sealed);
