import type { i18n as I18n } from 'i18next';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Router, Switch, type RouterProps } from 'wouter';
import { AppShell } from '../views/layout/AppShell';
import { LoadingScreen } from '../views/layout/LoadingScreen';
import { PageLoading } from '../views/layout/PageLoading';
import { RouteGuard } from '../views/layout/RouteGuard';
import { NotFoundPage } from '../views/not-found/NotFoundPage';
import { RoutePreloader } from './RoutePreloader';
import { routes } from './routes';
import { AppServicesContext, type AppServices } from './services';

export interface AppProps {
  services: AppServices;
  i18n: I18n;
  /** wouter options; tests pass `hook` from `wouter/memory-location`. */
  router?: Omit<RouterProps, 'children'>;
}

export function App({ services, i18n, router }: AppProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <AppServicesContext value={services}>
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
      </AppServicesContext>
    </I18nextProvider>
  );
}
