import { createAuthApiClient } from './api/auth-client';
import { createBrowserSessionStore } from './app/session-storage';
import { backendBaseUrls } from './lib/backend-urls';
import { EARLY_LOGIN_PATHS } from '../shared/route-match';
import { earlyLoginTooLate, handOverEarlyLogin } from './early-login-handoff';
import { capabilityInputs } from './machines/auth/capabilities';
import { detectCapabilities } from './machines/auth/detect-capabilities';
import { postAction, postFlow } from './machines/auth/flow-request';
import { isThirdPartyReturn } from './machines/auth/return-params';
import type { FlowReply } from './machines/auth/types';

/**
 * The sign-in page's first flow answer, asked for by this small script of its own: the server
 * names it `async` in the index.html of the sign-in pages only (bench/web.ts), so
 * `POST /login` and the preflight's `register_client_capabilities` go out while the app's code
 * still loads, and the widget's first render shows the login form. The app's start script
 * (src/main.tsx) takes the promise and hands it to the widget's machine.
 *
 * No flow without a sign-in widget to show it: not with a session, not on a return from a
 * third-party provider (that flow resumes from the one saved before the redirect, and a fresh
 * one racing it could leave the person signed out), and not once the start script ran without
 * it (the widget then starts its own).
 *
 * No X-Language: the provider sends no message for these two requests; the machine's later
 * requests carry the page's language.
 */
async function startLogin(): Promise<FlowReply> {
  const { auth } = backendBaseUrls();
  const deps = { authApi: createAuthApiClient(auth ? { baseUrl: auth } : {}) };
  // Asked beside the first request, so the preflight's answer can follow its reply at once
  // (before the app's start script takes the main thread for a while).
  const capabilities = detectCapabilities().catch(() => undefined);
  const first = await postFlow(deps, '/login', undefined, undefined);
  const href = first.body.actions.register_client_capabilities?.href;
  if (first.body.name !== 'preflight' || !href) return first;
  const found = await capabilities;
  return postAction(deps, href, {
    input_data: { ...capabilityInputs(found) },
    csrf_token: first.body.csrf_token,
  });
}

if (
  EARLY_LOGIN_PATHS.includes(window.location.pathname) &&
  !earlyLoginTooLate() &&
  !createBrowserSessionStore().readToken() &&
  !isThirdPartyReturn(window.location.search)
) {
  const reply = startLogin();
  // The machine's startFlow sees a failure; nothing else waits for it here.
  reply.catch(() => undefined);
  handOverEarlyLogin(reply);
}
