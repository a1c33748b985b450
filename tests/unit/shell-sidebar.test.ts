import { describe, expect, it } from 'vitest';
import { createSidebarStore, layoutFor } from '../../src/app/sidebar';

describe("sidebar breakpoints, as the specification's screens and constants say", () => {
  it('is open by default only above 1350 px; a drawer below 768 px', () => {
    expect(layoutFor(1351)).toBe('wide');
    expect(layoutFor(1350)).toBe('medium');
    expect(layoutFor(768)).toBe('medium');
    expect(layoutFor(767)).toBe('mobile');
    expect(createSidebarStore(1400).getSnapshot().context).toEqual({ layout: 'wide', open: true });
    expect(createSidebarStore(1350).getSnapshot().context).toEqual({
      layout: 'medium',
      open: false,
    });
    expect(createSidebarStore(375).getSnapshot().context).toEqual({
      layout: 'mobile',
      open: false,
    });
  });

  it('keeps the person’s choice within a range and resets it when the range changes', () => {
    const store = createSidebarStore(1400);
    store.send({ type: 'toggled' });
    store.send({ type: 'viewportChanged', width: 1500 });
    expect(store.getSnapshot().context.open).toBe(false);
    store.send({ type: 'viewportChanged', width: 1000 });
    expect(store.getSnapshot().context).toEqual({ layout: 'medium', open: false });
    store.send({ type: 'viewportChanged', width: 1351 });
    expect(store.getSnapshot().context).toEqual({ layout: 'wide', open: true });
  });

  it('the drawer closes after navigating; the desktop sidebar stays', () => {
    const mobile = createSidebarStore(375);
    mobile.send({ type: 'toggled' });
    expect(mobile.getSnapshot().context.open).toBe(true);
    mobile.send({ type: 'navigated' });
    expect(mobile.getSnapshot().context.open).toBe(false);

    const wide = createSidebarStore(1400);
    wide.send({ type: 'navigated' });
    expect(wide.getSnapshot().context.open).toBe(true);
  });
});
