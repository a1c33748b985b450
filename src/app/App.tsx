import type { i18n as I18n } from 'i18next';
import { Suspense, useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Router, Switch, type RouterProps } from 'wouter';
import { AppShell } from './layout/AppShell';
import { LoadingScreen } from './layout/LoadingScreen';
import { PageLoading } from './layout/PageLoading';
import { RouteGuard } from './layout/RouteGuard';
import { NotFoundPage } from '../views/not-found/NotFoundPage';
import { PageServicesContext } from '../views/page-services';
import { RouteActorContext, type RouteActorEnv } from '../views/route-actor';
import type { InspectOption } from './inspector';
import { RoutePreloader } from './RoutePreloader';
import { routes } from './routes';
import { AppServicesContext, type AppServices } from './services';

export interface AppProps {
  services: AppServices;
  i18n: I18n;
  /** wouter options; tests pass `hook` from `wouter/memory-location`. */
  router?: Omit<RouterProps, 'children'>;
  /** The Stately inspector (src/app/inspector.ts), attached to every page's machine. */
  inspect?: InspectOption | undefined;
}

export function App({ services, i18n, router, inspect }: AppProps) {
  const routeActors = useMemo(() => routeActorEnv(services, inspect), [services, inspect]);
  return (
    <I18nextProvider i18n={i18n}>
      <AppServicesContext value={services}>
        <PageServicesContext value={services}>
          <RouteActorContext value={routeActors}>
            <Router {...router}>
              <RoutePreloader />
              <Suspense fallback={<LoadingScreen />}>
                <AppShell>
                  <Suspense fallback={<PageLoading />}>
                    <Switch>
                      {routes.map((route) => (
                        <Route key={route.path} path={route.path}>
                          {(params) => (
                            <RouteGuard
                              access={route.access}
                              component={route.component}
                              params={params}
                            />
                          )}
                        </Route>
                      ))}
                      <Route component={NotFoundPage} />
                    </Switch>
                  </Suspense>
                </AppShell>
              </Suspense>
            </Router>
          </RouteActorContext>
        </PageServicesContext>
      </AppServicesContext>
    </I18nextProvider>
  );
}

/** What pages' machines reach (src/machines/wiring/): the app's services, injected downwards. */
function routeActorEnv(services: AppServices, inspect: InspectOption | undefined): RouteActorEnv {
  const { api, session, toasts, authApi, getToken, authEvents } = services;
  return {
    effects: {
      api,
      session,
      toast: (toast) => toasts.send({ type: 'show', ...toast }),
      auth: { authApi, getToken, authEvents },
    },
    ...(inspect ? { inspect } : {}),
  };
}
