import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, TOAST_SETTINGS, visibleToasts } from '../../src/app/toasts';

describe("toasts, as the specification's constants and limits say", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const ids = (store: ReturnType<typeof createToastStore>) =>
    store.getSnapshot().context.toasts.map((t) => t.id);

  it('keeps the spec values', () => {
    expect(TOAST_SETTINGS).toEqual({
      visible: 3,
      durationMs: 4000,
      widthPx: 356,
      gapPx: 14,
      position: 'bottom-right',
      swipeThresholdPx: 20,
    });
  });

  it('shows a toast for 4000 ms', () => {
    const store = createToastStore();
    store.send({ type: 'show', id: 'a', kind: 'success', messageKey: 'x' });
    vi.advanceTimersByTime(3999);
    expect(ids(store)).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(ids(store)).toEqual([]);
  });

  it('shows at most the newest three', () => {
    const store = createToastStore();
    for (const id of ['a', 'b', 'c', 'd']) {
      store.send({ type: 'show', id, kind: 'info', messageKey: 'x' });
      vi.advanceTimersByTime(100);
    }
    expect(visibleToasts(store.getSnapshot().context.toasts).map((t) => t.id)).toEqual([
      'd',
      'c',
      'b',
    ]);
    // The oldest expires first (4000 ms after it was shown).
    vi.advanceTimersByTime(3600);
    expect(ids(store)).toEqual(['d', 'c', 'b']);
  });

  it('keeps a loading toast until it is replaced, then counts 4000 ms from the replacement', () => {
    const store = createToastStore();
    store.send({ type: 'show', id: 'save', kind: 'loading', messageKey: 'saving' });
    vi.advanceTimersByTime(60_000);
    expect(ids(store)).toEqual(['save']);
    store.send({ type: 'show', id: 'save', kind: 'success', messageKey: 'saved' });
    expect(store.getSnapshot().context.toasts[0]).toMatchObject({
      kind: 'success',
      messageKey: 'saved',
    });
    vi.advanceTimersByTime(3999);
    expect(ids(store)).toEqual(['save']);
    vi.advanceTimersByTime(1);
    expect(ids(store)).toEqual([]);
  });

  it('showing the same id again restarts its time; dismiss removes it at once', () => {
    const store = createToastStore();
    store.send({ type: 'show', id: 'a', kind: 'warning', messageKey: 'x' });
    vi.advanceTimersByTime(3000);
    store.send({ type: 'show', id: 'a', kind: 'warning', messageKey: 'x' });
    vi.advanceTimersByTime(3000);
    expect(ids(store)).toEqual(['a']);
    store.send({ type: 'dismiss', id: 'a' });
    expect(ids(store)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
