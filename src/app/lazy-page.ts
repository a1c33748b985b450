import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** What a page gets, like a wouter route component: the route's parameters. */
export interface RoutePageProps {
  params: Record<string, string | undefined>;
}

/** A page loaded on demand whose code can be asked for early (src/app/RoutePreloader.tsx). */
export type LazyPage = LazyExoticComponent<ComponentType<RoutePageProps>> & {
  preload: () => Promise<unknown>;
};

/** `React.lazy` plus `preload()`: both share one import, so preloading never loads twice. */
export function lazyPage(
  // Pages type their own props (optional params of their route); React.lazy accepts any.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  load: () => Promise<{ default: ComponentType<any> }>,
): LazyPage {
  let loading: ReturnType<typeof load> | undefined;
  const once = () => (loading ??= load());
  return Object.assign(lazy(once), { preload: once });
}
