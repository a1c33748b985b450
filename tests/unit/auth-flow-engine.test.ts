import { describe, expect, it } from 'vitest';
import { createFlowEngine } from '../../server/auth-provider/flow/engine';
import { createMemoryFlowStore } from '../../server/auth-provider/flow/store';
import type { FlowDef } from '../../server/auth-provider/flow/types';
import { validateInputs } from '../../server/auth-provider/flow/validation';

type Env = { log: string[] };
const request = { ip: '127.0.0.1', userAgent: 'test', language: 'de' };

function setup(now = () => new Date()) {
  const log: string[] = [];
  let release: (() => void) | null = null;
  const def: FlowDef<Env> = {
    name: 'demo',
    ttlSeconds: 60,
    initial: ['first', 'second'],
    states: {
      first: {
        name: 'first',
        actions: [
          {
            name: 'go',
            description: 'Go on.',
            inputs: () => [
              {
                name: 'name',
                type: 'string',
                required: true,
                minLength: 2,
                maxLength: 5,
                trim: true,
                preserve: true,
              },
            ],
            async execute(ctx) {
              ctx.data.name = ctx.input.name;
              return { kind: 'continue', states: [] };
            },
          },
          {
            name: 'slow',
            description: 'Takes a while.',
            async execute() {
              await new Promise<void>((resolve) => (release = resolve));
              return { kind: 'continue', states: ['third'] };
            },
          },
          {
            name: 'hidden',
            description: 'Never offered.',
            enabled: () => false,
            execute: async () => ({ kind: 'stay' }),
          },
        ],
      },
      second: {
        name: 'second',
        back: true,
        before: async (ctx) => {
          ctx.env.log.push(`before second ${String(ctx.data.name)}`);
          ctx.payload.greeting = `Hallo ${String(ctx.data.name)}`;
        },
        actions: [
          {
            name: 'choose',
            description: 'Pick one.',
            inputs: () => [
              {
                name: 'color',
                type: 'string',
                required: true,
                allowedValues: [
                  { value: 'red', name: 'Rot' },
                  { value: 'blue', name: 'Blau' },
                ],
              },
            ],
            async execute(ctx) {
              ctx.preventRevert();
              return { kind: 'continue', states: ['third'] };
            },
          },
          {
            name: 'crash',
            description: 'Fails.',
            async execute(ctx) {
              ctx.data.changed = true;
              throw new Error('boom');
            },
          },
          {
            name: 'lose',
            description: 'Loses the database connection.',
            async execute() {
              throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
                code: 'ECONNREFUSED',
              });
            },
          },
          {
            name: 'fatal',
            description: 'Ends the flow.',
            execute: async () => ({
              kind: 'error',
              error: { status: 500, code: 'flow_discontinuity_error', message: 'x' },
            }),
          },
        ],
      },
      third: { name: 'third', back: true, actions: [] },
    },
  };
  const store = createMemoryFlowStore();
  const engine = createFlowEngine<Env, { held: string[] }>({
    flows: { demo: def },
    store,
    env: () => ({ log }),
    now,
  });
  const act = (
    state: any,
    name: string,
    input: Record<string, unknown> = {},
    csrf = state.body.csrf_token,
  ) => {
    const href: string = state.body.actions[name].href;
    return engine.run(
      'demo',
      decodeURIComponent(href.split('action=')[1]!),
      { input_data: input, csrf_token: csrf },
      request,
    );
  };
  return { engine, store, act, log, release: () => release?.() };
}

describe('flow engine', () => {
  it('starts in the first state with a CSRF token and only enabled actions', async () => {
    const { engine } = setup();
    const first = await engine.start('demo', request);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ name: 'first', status: 200, payload: {}, links: null });
    expect(first.body.csrf_token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(Object.keys(first.body.actions)).toEqual(['go', 'slow']);
    expect(first.body.actions.go!.href).toMatch(/^\/demo\?action=go%40[0-9a-f-]{36}$/);
    expect(first.body.actions.go!.inputs.name).toEqual({
      name: 'name',
      type: 'string',
      required: true,
      min_length: 2,
      max_length: 5,
    });
  });

  it('validates inputs: error at the input, value echoed, state kept, token rotated', async () => {
    const { engine, act } = setup();
    const first = await engine.start('demo', request);
    const bad = await act(first, 'go', { name: ' x ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      name: 'first',
      status: 400,
      error: { code: 'form_data_invalid_error' },
    });
    expect(bad.body.actions.go!.inputs.name).toMatchObject({
      value: 'x',
      error: { code: 'value_too_short_error' },
    });
    expect(bad.body.actions.slow!.inputs).toEqual({});
    expect(bad.body.csrf_token).not.toBe(first.body.csrf_token);
    const stale = await act(first, 'go', { name: 'Anna' });
    expect(stale.body).toMatchObject({ name: 'error', status: 403, csrf_token: '', actions: {} });
  });

  it('continues through the queue, runs before hooks, and goes back', async () => {
    const { engine, act, log } = setup();
    const second = await act(await engine.start('demo', request), 'go', { name: 'Anna' });
    expect(second.body).toMatchObject({ name: 'second', payload: { greeting: 'Hallo Anna' } });
    expect(Object.keys(second.body.actions)).toContain('back');
    const back = await act(second, 'back');
    expect(back.body.name).toBe('first');
    expect(back.body.actions.back).toBeUndefined();
    const again = await act(back, 'go', { name: 'Ben' });
    expect(again.body.payload).toEqual({ greeting: 'Hallo Ben' });
    expect(log).toEqual(['before second Anna', 'before second Ben']);
    const third = await act(again, 'choose', { color: 'green' });
    expect(third.body.actions.choose!.inputs.color!.error!.message).toBe(
      'The value is invalid. Must be one of: red,blue',
    );
    const done = await act(third, 'choose', { color: 'red' });
    expect(done.body.name).toBe('third');
    expect(done.body.actions).toEqual({}); // the step prevented going back
  });

  it('rolls back an action that throws and answers a bare technical_error', async () => {
    const { engine, act, store } = setup();
    const second = await act(await engine.start('demo', request), 'go', { name: 'Anna' });
    const id = decodeURIComponent(second.body.actions.crash!.href).split('@')[1]!;
    const before = structuredClone(store.flows().get(id));
    const crash = await act(second, 'crash');
    expect(crash.body).toEqual({
      name: 'error',
      status: 500,
      csrf_token: '',
      actions: {},
      error: { code: 'technical_error', message: 'Something went wrong.' },
      links: null,
    });
    expect(store.flows().get(id)).toEqual(before);
    const fatal = await act(second, 'fatal');
    expect(fatal.body).toMatchObject({ name: 'error', status: 500, payload: {}, actions: {} });
  });

  it('answers 503 with Retry-After, not a 500, when the database cannot be reached', async () => {
    const { engine, act } = setup();
    const second = await act(await engine.start('demo', request), 'go', { name: 'Anna' });
    const lost = await act(second, 'lose');
    expect(lost.status).toBe(503);
    expect(lost.headers).toEqual({ 'retry-after': '5' });
    expect(lost.body).toMatchObject({
      name: 'error',
      status: 503,
      error: { code: 'technical_error' },
    });
  });

  it('refuses suspended actions, expired flows and a second concurrent action', async () => {
    let clock = new Date('2026-01-01T10:00:00Z');
    const { engine, act, release } = setup(() => clock);
    const first = await engine.start('demo', request);
    const id = decodeURIComponent(first.body.actions.go!.href).split('@')[1]!;
    const hidden = await engine.run(
      'demo',
      `hidden@${id}`,
      { input_data: {}, csrf_token: first.body.csrf_token },
      request,
    );
    expect(hidden.status).toBe(403);

    const slow = act(first, 'slow');
    const second = await act(first, 'go', { name: 'Anna' });
    expect(second.body).toMatchObject({
      name: 'error',
      status: 500,
      error: { code: 'technical_error' },
    });
    release();
    expect((await slow).body.name).toBe('third');

    clock = new Date('2026-01-01T10:01:01Z');
    const expired = await act(first, 'go', { name: 'Anna' });
    expect(expired.body).toMatchObject({
      name: 'error',
      status: 410,
      error: { code: 'flow_expired_error' },
    });
  });
});

describe('input validation', () => {
  it('follows the protocol rules', () => {
    const { values, errors } = validateInputs(
      [
        { name: 'email', type: 'email', required: true, trim: true, lowercase: true },
        { name: 'code', type: 'string', required: true },
        { name: 'flag', type: 'boolean', required: true },
        { name: 'optional', type: 'string', maxLength: 3 },
      ],
      { email: '  Anna@Example.ORG ', code: 123456, flag: 'yes', optional: 'abcd' },
    );
    expect(values.email).toBe('anna@example.org');
    expect(errors).toEqual({
      code: { code: 'value_missing_error', message: 'The value is missing.' },
      flag: { code: 'value_invalid_error', message: 'The value is invalid.' },
      optional: { code: 'value_too_long_error', message: 'The value is too long.' },
    });
    expect(validateInputs([{ name: 'e', type: 'email' }], { e: 'a@b' }).errors.e?.code).toBe(
      'value_invalid_error',
    );
  });
});
