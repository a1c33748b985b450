import { useTranslation } from 'react-i18next';
import { matchRoute, useLocation, useRouter, type Parser } from 'wouter';
import type { i18n as I18n } from 'i18next';
import { routes } from './routes';

/** Per app (its i18next instance): the path whose page was asked for last. */
const preloaded = new WeakMap<I18n, string>();

function preloadRoute(pathname: string, parser: Parser, i18n: I18n) {
  if (preloaded.get(i18n) === pathname) return;
  preloaded.set(i18n, pathname);
  const route = routes.find((r) => matchRoute(parser, r.path, pathname)[0]);
  if (!route) return;
  const component = route.component as { preload?: () => Promise<unknown> };
  void component.preload?.();
  if (route.namespaces?.length) void i18n.loadNamespaces(route.namespaces);
}

/**
 * Asks for the current page's code and translation namespaces as soon as the app starts,
 * in parallel with the start translations, instead of after them (bench/web.ts measures it).
 * Rendered outside the Suspense boundary. It asks while rendering, not in an effect: effects
 * of the first render run only after React committed the loading screen, a frame or more
 * later. Both requests are idempotent (one import per page, i18next loads a namespace once).
 */
export function RoutePreloader() {
  const [pathname] = useLocation();
  const { parser } = useRouter();
  const { i18n } = useTranslation(undefined, { useSuspense: false });
  preloadRoute(pathname, parser, i18n);
  return null;
}
