import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoute, useLocation, useRouter } from 'wouter';
import { routes } from './routes';

/**
 * Asks for the current page's code and translation namespaces as soon as the app starts,
 * in parallel with the start translations, instead of after them (bench/web.ts measures it).
 * Rendered outside the Suspense boundary, so it runs while the first translations load.
 */
export function RoutePreloader() {
  const [pathname] = useLocation();
  const { parser } = useRouter();
  const { i18n } = useTranslation(undefined, { useSuspense: false });
  useEffect(() => {
    const route = routes.find((r) => matchRoute(parser, r.path, pathname)[0]);
    if (!route) return;
    const component = route.component as { preload?: () => Promise<unknown> };
    void component.preload?.();
    if (route.namespaces?.length) void i18n.loadNamespaces(route.namespaces);
  }, [pathname, parser, i18n]);
  return null;
}
