import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../server/auth-provider/config';
import { allowedOrigins } from '../../server/auth-provider/cors';
import {
  assertProductionSecrets,
  DEV_RESEARCH_PSEUDONYM_KEY,
  DEV_WEBHOOK_SECRET_KEY,
  loadConfig,
} from '../../server/config';
import { loggerOptions } from '../../server/http/problem';
import { prettyLogStream } from '../../server/http/log-stream';

// What an operator or a developer meets when starting the server.

const OWN_KEY = 'an-operators-own-key-0123456789-abcdefghij';

describe('PORT in development', () => {
  it('carries through to the public URL, the issuer and the allowed origins', () => {
    const config = loadConfig({ PORT: '3100' });
    expect(config.NODE_ENV).toBe('development');
    expect(config.PUBLIC_URL).toBe('http://localhost:3100');
    expect(config.AUTH_ISSUER).toBe('http://localhost:3100/auth');
    expect(allowedOrigins(loadAuthConfig({}), config.PUBLIC_URL)).toEqual([
      'http://localhost:3100',
    ]);
  });

  it('gives way to PUBLIC_URL and AUTH_ISSUER when they are set', () => {
    const publicOnly = loadConfig({ PORT: '3100', PUBLIC_URL: 'https://praxis.example.org' });
    expect(publicOnly.AUTH_ISSUER).toBe('https://praxis.example.org/auth');
    const both = loadConfig({ PORT: '3100', AUTH_ISSUER: 'https://id.example.org' });
    expect(both.AUTH_ISSUER).toBe('https://id.example.org');
    expect(both.PUBLIC_URL).toBe('http://localhost:3100');
  });

  it('leaves the fixed defaults outside development (a proxy port is not the public one)', () => {
    for (const NODE_ENV of ['test', 'production']) {
      const config = loadConfig({ NODE_ENV, PORT: '3100', WEBHOOK_SECRET_KEY: OWN_KEY });
      expect([config.PUBLIC_URL, config.AUTH_ISSUER]).toEqual([
        'http://localhost:3000',
        'http://localhost:3000/auth',
      ]);
    }
  });
});

describe('development secrets in production', () => {
  const production = (env: Record<string, string> = {}) =>
    loadConfig({ NODE_ENV: 'production', ...env });

  it('are refused in one error that names each of them', () => {
    expect(() => assertProductionSecrets(production())).toThrow(
      /^Refusing to start in production with development secrets: WEBHOOK_SECRET_KEY\. /,
    );
    expect(() =>
      assertProductionSecrets(
        production({
          WEBHOOK_SECRET_KEY: DEV_WEBHOOK_SECRET_KEY,
          RESEARCH_PSEUDONYM_KEY: DEV_RESEARCH_PSEUDONYM_KEY,
        }),
      ),
    ).toThrow(/development secrets: WEBHOOK_SECRET_KEY, RESEARCH_PSEUDONYM_KEY\. /);
  });

  it('pass with keys of the operator’s own, and outside production', () => {
    expect(() =>
      assertProductionSecrets(production({ WEBHOOK_SECRET_KEY: OWN_KEY })),
    ).not.toThrow();
    // Moving off the development key: it may still be the previous key for one start.
    expect(() =>
      assertProductionSecrets(
        production({
          WEBHOOK_SECRET_KEY: OWN_KEY,
          WEBHOOK_SECRET_KEY_PREVIOUS: DEV_WEBHOOK_SECRET_KEY,
        }),
      ),
    ).not.toThrow();
    expect(() => assertProductionSecrets(loadConfig({}))).not.toThrow();
  });
});

describe('the readable log of development', () => {
  it('writes one line per entry, a request’s fields included', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const log = pino(loggerOptions('info'), prettyLogStream({ colorize: false, destination: out }));
    log.info(
      { req: { method: 'GET', url: '/api/appointments?from=x', id: 'req-1' }, reqId: 'req-1' },
      'incoming request',
    );
    log.info({ res: { statusCode: 200 }, responseTime: 3.2, reqId: 'req-1' }, 'request completed');
    log.warn({ error: new TypeError('boom') }, 'something odd');
    await new Promise((resolve) => setImmediate(resolve));
    const lines = text.trimEnd().split('\n');
    expect(lines, text).toHaveLength(3);
    expect(lines[0]).toMatch(
      /INFO: incoming request \{"req":\{"method":"GET","url":"\/api\/appointments"/,
    );
    expect(lines[1]).toMatch(/INFO: request completed .*"statusCode":200/);
    expect(lines[2]).toMatch(/WARN: something odd .*"type":"TypeError"/);
  });
});
