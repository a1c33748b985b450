import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { CONSENT_KEY, createConsentActor } from '../../src/app/consent';
import { consentMachine, type ConsentInput } from '../../src/machines/consent.machine';

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
