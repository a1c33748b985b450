import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { CONSENT_KEY, createConsentActor } from '../../src/app/consent';
import {
  consentMachine,
  type ConsentChoice,
  type ConsentInput,
} from '../../src/machines/consent.machine';
import { describeModel, startMachine } from '../support/model';

// The tag manager of the sign-up pages loads only after "Akzeptieren"; the choice is kept and
// can be changed; a decline after it ran reloads the page without it.

function start(input: ConsentInput) {
  const effects = { store: vi.fn(), load: vi.fn(), reload: vi.fn() };
  const actor = createActor(
    consentMachine.provide({
      actions: {
        storeChoice: (_, { choice }) => effects.store(choice),
        loadTagManager: effects.load,
        reloadPage: effects.reload,
      },
    }),
    { input },
  ).start();
  const banner = () => actor.getSnapshot().hasTag('banner');
  return { actor, effects, banner };
}

describe('consent machine', () => {
  it('asks first and loads nothing until accepted', () => {
    const { actor, effects, banner } = start({ available: true, stored: null });
    expect(banner()).toBe(true);
    expect(effects.load).not.toHaveBeenCalled();
    actor.send({ type: 'consent.accept' });
    expect(effects.store).toHaveBeenCalledWith('accepted');
    expect(effects.load).toHaveBeenCalledTimes(1);
    expect(banner()).toBe(false);
  });

  it('declines with one click and then loads nothing', () => {
    const { actor, effects, banner } = start({ available: true, stored: null });
    actor.send({ type: 'consent.decline' });
    expect(effects.store).toHaveBeenCalledWith('declined');
    expect(banner()).toBe(false);
    expect(effects.load).not.toHaveBeenCalled();
    expect(effects.reload).not.toHaveBeenCalled();
  });

  it('follows a kept choice without asking again', () => {
    const accepted = start({ available: true, stored: 'accepted' });
    expect(accepted.banner()).toBe(false);
    expect(accepted.effects.load).toHaveBeenCalledTimes(1);
    const declined = start({ available: true, stored: 'declined' });
    expect(declined.banner()).toBe(false);
    expect(declined.effects.load).not.toHaveBeenCalled();
  });

  it('shows nothing and loads nothing where the page has no tag manager', () => {
    const { actor, effects, banner } = start({ available: false, stored: 'accepted' });
    expect(banner()).toBe(false);
    actor.send({ type: 'consent.open' });
    actor.send({ type: 'consent.accept' });
    expect(banner()).toBe(false);
    expect(effects.load).not.toHaveBeenCalled();
  });

  it('reopens from the footer: closing keeps the choice, a decline after loading reloads', () => {
    const { actor, effects, banner } = start({ available: true, stored: 'accepted' });
    actor.send({ type: 'consent.open' });
    expect(banner()).toBe(true);
    actor.send({ type: 'consent.close' });
    expect(banner()).toBe(false);
    expect(effects.store).not.toHaveBeenCalled();
    expect(effects.load).toHaveBeenCalledTimes(1);
    actor.send({ type: 'consent.open' });
    actor.send({ type: 'consent.decline' });
    expect(effects.store).toHaveBeenCalledWith('declined');
    expect(effects.reload).toHaveBeenCalledTimes(1);
  });

  it('changes a decline into an accept from the footer', () => {
    const { actor, effects, banner } = start({ available: true, stored: 'declined' });
    actor.send({ type: 'consent.open' });
    expect(banner()).toBe(true);
    actor.send({ type: 'consent.accept' });
    expect(effects.store).toHaveBeenCalledWith('accepted');
    expect(effects.load).toHaveBeenCalledTimes(1);
    expect(banner()).toBe(false);
  });
});

describe('consent wiring', () => {
  function page(script: string | null) {
    const doc = document.implementation.createHTMLDocument('t');
    if (script) {
      const meta = doc.createElement('meta');
      meta.name = 'tag-manager-script';
      meta.content = script;
      doc.head.appendChild(meta);
    }
    const kept = new Map<string, string>();
    const storage = {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
    };
    return { doc, kept, storage };
  }

  it('adds the script the server named once accepted, and keeps the choice', () => {
    const { doc, kept, storage } = page('https://tags.example.org/gtm.js?id=GTM-ABC123');
    const actor = createConsentActor({ document: doc, storage, reload: () => {} });
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    actor.send({ type: 'consent.accept' });
    expect(doc.querySelector('script')?.getAttribute('src')).toBe(
      'https://tags.example.org/gtm.js?id=GTM-ABC123',
    );
    expect(kept.get(CONSENT_KEY)).toBe('accepted');
  });

  it('offers nothing on a page without the server’s meta', () => {
    const { doc, storage } = page(null);
    const actor = createConsentActor({ document: doc, storage, reload: () => {} });
    expect(actor.getSnapshot().context.available).toBe(false);
    actor.send({ type: 'consent.accept' });
    expect(doc.querySelectorAll('script')).toHaveLength(0);
  });
});

describe('consent machine, model-based', () => {
  const events = [
    { type: 'consent.accept' },
    { type: 'consent.decline' },
    { type: 'consent.open' },
    { type: 'consent.close' },
  ] as const;
  const plan = (name: string, input: ConsentInput) => ({ name, input, events: [...events] });

  describeModel('model-based', {
    machine: consentMachine,
    plans: [
      plan('first visit', { available: true, stored: null }),
      plan('accepted before', { available: true, stored: 'accepted' }),
      plan('declined before', { available: true, stored: 'declined' }),
      plan('no tag manager here', { available: false, stored: 'accepted' }),
    ],
    start: (plan) => {
      const stored: ConsentChoice[] = [];
      const effects = { stored, load: vi.fn(), reload: vi.fn() };
      const started = startMachine(consentMachine, {
        input: plan.input!,
        actions: {
          storeChoice: (_: unknown, p: { choice: ConsentChoice }) => void stored.push(p.choice),
          loadTagManager: effects.load,
          reloadPage: effects.reload,
        },
      });
      return { ...started, effects };
    },
    states: {
      'consent.unavailable': (s, r) => {
        expect(s.hasTag('banner')).toBe(false);
        expect(r.effects.load).not.toHaveBeenCalled();
      },
      'consent.undecided': (s, r) => {
        // The banner asks; nothing is loaded or kept yet.
        expect(s.hasTag('banner')).toBe(true);
        expect(r.effects.load).not.toHaveBeenCalled();
        expect(r.effects.stored).toEqual([]);
      },
      'consent.accepted': (s, r) => {
        // Loaded once however often the banner was reopened.
        expect(r.effects.load).toHaveBeenCalledTimes(1);
        expect(s.context.choice).toBe('accepted');
      },
      'consent.accepted.closed': (s) => expect(s.hasTag('banner')).toBe(false),
      'consent.accepted.reviewing': (s) => expect(s.hasTag('banner')).toBe(true),
      'consent.declined': (s, r) => {
        expect(r.effects.load).not.toHaveBeenCalled();
        expect(s.context.choice).toBe('declined');
      },
      'consent.declined.closed': (s) => expect(s.hasTag('banner')).toBe(false),
      'consent.declined.reviewing': (s) => expect(s.hasTag('banner')).toBe(true),
      'consent.reloading': (_, r) => {
        expect(r.effects.stored.at(-1)).toBe('declined');
        expect(r.effects.reload).toHaveBeenCalledTimes(1);
      },
    },
  });
});
