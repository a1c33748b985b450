import { useEffect, useSyncExternalStore } from 'react';

/**
 * Names for breadcrumbs of records: a route's crumb says "Klient:in"; a page that
 * knows whose record it shows names it here ("Klara Klient"), and the trail shows that name
 * while the page is open.
 */

const names = new Map<string, string>();
let snapshot: ReadonlyMap<string, string> = new Map();
const listeners = new Set<() => void>();

function changed() {
  snapshot = new Map(names);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The crumb linking to `href` reads `name` while the calling page is mounted (null: its default). */
export function useCrumbName(href: string, name: string | null) {
  useEffect(() => {
    if (!name) return undefined;
    names.set(href, name);
    changed();
    return () => {
      if (names.get(href) !== name) return;
      names.delete(href);
      changed();
    };
  }, [href, name]);
}

/** The names pages gave, by crumb address. */
export const useCrumbNames = (): ReadonlyMap<string, string> =>
  useSyncExternalStore(subscribe, () => snapshot);
