import { describe, expect, it } from 'vitest';
import { DEV_WEBHOOK_SECRET_KEY } from '../../server/config';
import {
  keyringOf,
  needsSealing,
  openSecret,
  sealSecret,
  SecretUnreadable,
} from '../../server/features/webhooks/secret-box';
import { newWebhookSecret } from '../../server/features/webhooks/index';

const OLD_KEY = 'an-older-webhook-secret-key-with-32-characters';
const NEW_KEY = 'the-current-webhook-secret-key-with-32-characters';
const TYPE = 'appointment.created';

describe('webhook secrets at rest', () => {
  const keyring = keyringOf({
    WEBHOOK_SECRET_KEY: NEW_KEY,
    WEBHOOK_SECRET_KEY_PREVIOUS: undefined,
  });

  it('seals a secret so the stored value holds none of it, and opens it again', () => {
    const secret = newWebhookSecret();
    const stored = sealSecret(keyring, TYPE, secret);
    expect(stored).toMatch(/^wsk1\.[0-9a-f]{8}\./);
    expect(stored).not.toContain(secret.slice(6, 20));
    expect(Buffer.from(stored.split('.')[3]!, 'base64url').toString('latin1')).not.toContain(
      'whsec_',
    );
    expect(openSecret(keyring, TYPE, stored)).toBe(secret);
    // A fresh IV each time: the same secret never looks the same twice.
    expect(sealSecret(keyring, TYPE, secret)).not.toBe(stored);
  });

  it("does not open a value moved to another type's row, changed, or sealed with an unknown key", () => {
    const stored = sealSecret(keyring, TYPE, newWebhookSecret());
    expect(() => openSecret(keyring, 'client.updated', stored)).toThrow(SecretUnreadable);
    const parts = stored.split('.');
    parts[3] = Buffer.from('whsec_tampered').toString('base64url');
    expect(() => openSecret(keyring, TYPE, parts.join('.'))).toThrow(SecretUnreadable);
    const dev = keyringOf({
      WEBHOOK_SECRET_KEY: DEV_WEBHOOK_SECRET_KEY,
      WEBHOOK_SECRET_KEY_PREVIOUS: undefined,
    });
    expect(() => openSecret(dev, TYPE, stored)).toThrow(/unknown key/);
  });

  it('reads a clear secret of before the sealing as it is, and asks to seal it', () => {
    const clear = newWebhookSecret();
    expect(openSecret(keyring, TYPE, clear)).toBe(clear);
    expect(needsSealing(keyring, clear)).toBe(true);
    expect(needsSealing(keyring, sealSecret(keyring, TYPE, clear))).toBe(false);
  });

  it('opens what the previous key sealed after the key changed, and asks to seal it anew', () => {
    const before = keyringOf({
      WEBHOOK_SECRET_KEY: OLD_KEY,
      WEBHOOK_SECRET_KEY_PREVIOUS: undefined,
    });
    const after = keyringOf({ WEBHOOK_SECRET_KEY: NEW_KEY, WEBHOOK_SECRET_KEY_PREVIOUS: OLD_KEY });
    const secret = newWebhookSecret();
    const stored = sealSecret(before, TYPE, secret);
    expect(openSecret(after, TYPE, stored)).toBe(secret);
    expect(needsSealing(after, stored)).toBe(true);
    expect(() => openSecret(keyring, TYPE, stored)).toThrow(SecretUnreadable);
  });
});
