import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { inspect } from './app/inspector';
import { matchesRoute } from '../shared/route-match';
import { routes } from './app/routes';
import { createAppServices } from './app/services';
import { takeEarlyLogin } from './early-login-handoff';
import { createI18n } from './i18n';
import './app/app.css';

// App-wide things are created once, outside React (StrictMode mounts components twice).
const { i18n, ready } = createI18n();
const services = createAppServices({ inspect });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** The longest the first render waits for the page's code and translations. */
const FIRST_RENDER_WAIT_MS = 3_000;

const pathname = window.location.pathname;
// On the sign-in page the flow's first answer is on its way (src/early-login.ts); the widget's
// machine starts as soon as its code is there and the widget adopts the running machine. Its
// module is the widget's (modulepreloaded with the page), so other pages do not carry it.
const firstReply = takeEarlyLogin();
if (firstReply) {
  const deps = {
    authApi: services.authApi,
    getToken: services.getToken,
    authEvents: services.authEvents,
    language: () => i18n.resolvedLanguage ?? i18n.languages?.[0] ?? 'de',
  };
  void import('./machines/auth/early-start').then(({ startFlowEarly }) =>
    startFlowEarly(deps, 'login', { firstReply, inspect }),
  );
}

// The first render waits until the start translations, the page's code and its namespaces are
// there (the server hints them in index.html, server/web/static.ts): a first render that
// suspends commits the empty loading screen, and React then holds the page back until 300 ms
// after that fallback (its throttle for revealing suspended content). With everything there
// the page is the first thing painted. Other routes render as before (src/app/RoutePreloader).
const route = routes.find((r) => matchesRoute(r.path, pathname));
const page = route?.component as { preload?: () => Promise<unknown> } | undefined;
const firstScreen = Promise.all([
  ready,
  route?.namespaces?.length ? i18n.loadNamespaces([...route.namespaces]) : null,
  page?.preload?.(),
]).catch(() => undefined);
const timeout = new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS));

// A transition: a lazy page whose code is already there still suspends once (React.lazy reads
// its promise a microtask later); a transition render waits for that microtask, a normal
// first render would commit the fallback at once.
void Promise.race([firstScreen, timeout]).then(() => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App services={services} i18n={i18n} inspect={inspect} />
      </StrictMode>,
    ),
  );
});
