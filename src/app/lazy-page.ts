import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A page loaded on demand whose code can be asked for early (src/app/RoutePreloader.tsx). */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/** `React.lazy` plus `preload()`: both share one import, so preloading never loads twice. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const once = () => (loading ??= load());
  return Object.assign(lazy(once), { preload: once });
}
