import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import {
  MAX_ATTEMPTS,
  newWebhookSecret,
  nextDelayMs,
  parseRetryAfter,
  refusalOf,
  saveRefusalOf,
  signatureHeader,
} from '../../server/features/webhooks/index';

describe('webhook targets', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.20.1.1',
    '192.168.1.10',
    '169.254.10.10',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('refuses %s unless private targets are allowed', (address) => {
    expect(refusalOf(address, false)).toMatch(/loopback, private or link-local/);
    expect(refusalOf(address, true)).toBeNull();
  });

  it.each(['169.254.169.254', '100.100.100.200', 'fd00:ec2::254'])(
    'refuses the metadata address %s even when private targets are allowed',
    (address) => expect(refusalOf(address, true)).toMatch(/metadata/),
  );

  it.each(['93.184.215.14', '2606:4700::1111', '172.32.0.1', '11.0.0.1'])(
    'lets public %s through',
    (address) => expect(refusalOf(address, false)).toBeNull(),
  );
});

describe('webhook targets when saved', () => {
  const resolvesTo = (address: string) => async () => [
    { address, family: address.includes(':') ? 6 : 4 },
  ];
  const unknown = async () => {
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };

  it('refuses a name that resolves to a private address now, unless private targets are allowed', async () => {
    expect(
      await saveRefusalOf('https://hooks.example.org/in', false, resolvesTo('10.0.0.7')),
    ).toMatch(/hooks\.example\.org resolves to 10\.0\.0\.7/);
    expect(
      await saveRefusalOf('https://hooks.example.org/in', true, resolvesTo('10.0.0.7')),
    ).toBeNull();
  });

  it('refuses metadata names and addresses even when private targets are allowed', async () => {
    expect(await saveRefusalOf('http://metadata.google.internal/', true, unknown)).toMatch(
      /metadata/,
    );
    expect(await saveRefusalOf('http://metadata.google.internal./', true, unknown)).toMatch(
      /metadata/,
    );
    expect(
      await saveRefusalOf('https://x.example.org/', true, resolvesTo('169.254.169.254')),
    ).toMatch(/metadata/);
  });

  it('accepts a public name that resolves publicly or not at all', async () => {
    expect(
      await saveRefusalOf('https://hooks.example.org/in', false, resolvesTo('93.184.215.14')),
    ).toBeNull();
    expect(await saveRefusalOf('https://hooks.example.org/in', false, unknown)).toBeNull();
  });
});

describe('defaults', () => {
  it('gives a delivery 15 s, switches off after 5 days of failures, refuses private targets', () => {
    const config = loadConfig({});
    expect(config.WEBHOOK_TIMEOUT_MS).toBe(15_000);
    expect(config.WEBHOOK_DISABLE_AFTER_HOURS).toBe(120);
    expect(config.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
  });
});

describe('retry schedule', () => {
  it('spreads the automatic attempts over about three days, then stops', () => {
    let total = 0;
    for (let n = 1; n < MAX_ATTEMPTS; n++) total += nextDelayMs(n, null, () => 0.5)!;
    expect(total / 3_600_000).toBeCloseTo(75.6, 0);
    expect(nextDelayMs(MAX_ATTEMPTS, null)).toBeNull();
  });

  it('jitters by at most 10 % and waits at least for retry-after (up to a day)', () => {
    expect(nextDelayMs(3, null, () => 0)).toBe(27 * 60_000);
    expect(nextDelayMs(3, null, () => 1)).toBe(33 * 60_000);
    expect(nextDelayMs(1, 120_000, () => 0.5)).toBe(120_000);
    expect(nextDelayMs(1, 10 * 86_400_000, () => 0.5)).toBe(86_400_000);
  });

  it('reads retry-after as seconds or as a date', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 26 Nov 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('signatures', () => {
  it('signs once per secret so that either verifies', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const at = new Date();
    const body = JSON.stringify({ type: 'client.created', timestamp: at.toISOString(), data: {} });
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatureHeader([a, b], 'msg_1', at, body),
    };
    expect(new Webhook(a).verify(body, headers)).toMatchObject({ type: 'client.created' });
    expect(new Webhook(b).verify(body, headers)).toMatchObject({ type: 'client.created' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });
});
