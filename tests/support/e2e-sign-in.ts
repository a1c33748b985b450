import type { BrowserContext, Page } from 'playwright-core';

/**
 * Signs in through the real authentication provider's flow API (docs/auth-flow-protocol.md), as the
 * widget would, reading the one-time code from the development mailbox; then seeds the token
 * into a browser context the way the session machine restores it (cookie `hanko`).
 */
interface Flow {
  name: string;
  csrf_token: string;
  actions: Record<string, { href: string }>;
}

async function post(baseUrl: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? '' : JSON.stringify(body),
  });
  return { flow: (await res.json()) as Flow, headers: res.headers, status: res.status };
}

async function act(
  baseUrl: string,
  state: Flow,
  action: string,
  input: Record<string, unknown> = {},
) {
  const a = state.actions[action];
  if (!a)
    throw new Error(`${state.name} offers no ${action} (${Object.keys(state.actions).join(', ')})`);
  return post(baseUrl, a.href, { input_data: input, csrf_token: state.csrf_token });
}

/** The one-time codes mailed to `email`, newest first, from /dev/mailbox. */
async function codesFor(baseUrl: string, email: string): Promise<string[]> {
  const html = await (await fetch(`${baseUrl}/dev/mailbox`)).text();
  return html
    .split('<article>')
    .slice(1)
    .filter((article) => article.includes(`An: ${email}`))
    .flatMap((article) => /Einmalcode für Sprechstunde: (\d{6})/.exec(article)?.[1] ?? []);
}

/**
 * Asks for a code (`send`) and enters it. The e2e files share one server, and several sign
 * in as the same demo account at once: the newest code for the address may be another
 * file's flow's, so each code mailed since the request is tried, newest first.
 */
async function confirmByPasscode(
  baseUrl: string,
  email: string,
  send: () => Promise<{ flow: Flow }>,
) {
  const before = new Set(await codesFor(baseUrl, email));
  let state = (await send()).flow;
  const fresh = (await codesFor(baseUrl, email)).filter((code) => !before.has(code));
  if (fresh.length === 0) throw new Error(`no one-time code mailed to ${email}`);
  let last: Awaited<ReturnType<typeof post>> | undefined;
  for (const code of fresh) {
    last = await act(baseUrl, state, 'verify_passcode', { code });
    if (last.flow.name !== 'passcode_confirmation') break;
    state = last.flow;
  }
  return last!;
}

async function begin(baseUrl: string, flow: 'login' | 'registration') {
  const first = await post(baseUrl, `/${flow}`);
  return act(baseUrl, first.flow, 'register_client_capabilities', {
    webauthn_available: false,
    webauthn_conditional_mediation_available: false,
    webauthn_platform_authenticator_available: false,
  });
}

const tokenOf = (res: { flow: Flow; headers: Headers }) => {
  if (res.flow.name !== 'success') throw new Error(`sign-in ended in ${res.flow.name}`);
  const token = res.headers.get('x-auth-token');
  if (!token) throw new Error('no X-Auth-Token');
  return token;
};

/** A demo account (or any existing one) signs in by one-time code; returns the session JWT. */
export async function signInByPasscode(baseUrl: string, email: string): Promise<string> {
  const init = await begin(baseUrl, 'login');
  // Accounts without a password go straight to the code; with one, the chooser comes first.
  return tokenOf(
    await confirmByPasscode(baseUrl, email, async () => {
      const next = await act(baseUrl, init.flow, 'continue_with_login_identifier', { email });
      return next.flow.name === 'login_method_chooser'
        ? act(baseUrl, next.flow, 'continue_to_passcode_confirmation')
        : next;
    }),
  );
}

/** Someone new registers with a one-time code (no password); returns the session JWT. */
export async function registerByPasscode(baseUrl: string, email: string): Promise<string> {
  const init = await begin(baseUrl, 'registration');
  const pw = await confirmByPasscode(baseUrl, email, () =>
    act(baseUrl, init.flow, 'register_login_identifier', { email }),
  );
  return tokenOf(pw.flow.name === 'success' ? pw : await act(baseUrl, pw.flow, 'skip'));
}

/** Puts the token where the app's session machine finds it at start (cookie `hanko`). */
export async function seedSession(context: BrowserContext, baseUrl: string, token: string) {
  await context.addCookies([{ name: 'hanko', value: token, url: baseUrl, sameSite: 'Lax' }]);
}

/** Opens `path` in `page` signed in with `token` (seeded into the page's browser context). */
export async function openSignedIn(page: Page, baseUrl: string, token: string, path: string) {
  await seedSession(page.context(), baseUrl, token);
  await page.goto(path);
}

/** The coach record of a signed-in coach, as `POST /api/login` answers it. */
export async function coachOf(
  baseUrl: string,
  token: string,
): Promise<{ id: string; name: string }> {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await login.json()) as { coach: { id: string; name: string } }).coach;
}
