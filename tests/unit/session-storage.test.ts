import { describe, expect, it } from 'vitest';
import { createBrowserSessionStore, SESSION_STORAGE_KEY } from '../../src/app/session-storage';

function fakeBrowser() {
  const items = new Map<string, string>();
  let cookie = '';
  const document = {
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      // Enough of a cookie jar for one cookie: the last write wins, Max-Age=0 removes.
      cookie = /Max-Age=0/.test(value) ? '' : value.split(';')[0]!;
    },
    location: { protocol: 'http:' },
  };
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  return { items, document, storage };
}

const session = {
  userId: 'u-1',
  role: 'COACH' as const,
  active: true,
  coach: { id: 'c-1', name: 'Dr. Anna Berg' },
  permissions: ['readClinical', 'holdAppointments', 'openStaffPages'] as const,
};

describe('browser session store', () => {
  it('keeps the token in the hanko cookie and the session in local storage', () => {
    const browser = fakeBrowser();
    const store = createBrowserSessionStore(browser);
    store.writeToken('jwt.token.value', null);
    store.writeSession(session);
    expect(browser.document.cookie).toBe('hanko=jwt.token.value');
    expect(store.readToken()).toBe('jwt.token.value');
    expect(store.readSession()).toEqual(session);
    store.clear();
    expect(store.readToken()).toBeNull();
    expect(store.readSession()).toBeNull();
  });

  it.each([
    ['not JSON', '{'],
    ['an unknown role', JSON.stringify({ ...session, role: 'KING' })],
    ['an empty user id', JSON.stringify({ ...session, userId: '' })],
    ['active as text', JSON.stringify({ ...session, active: 'yes' })],
    ['a coach without a name', JSON.stringify({ ...session, coach: { id: 'c-1' } })],
    // Stored before the login answer carried every permission: signed in afresh by the token.
    ['no permissions', JSON.stringify({ ...session, permissions: undefined })],
    [
      'no area among its permissions',
      JSON.stringify({ ...session, permissions: ['readClinical'] }),
    ],
    ['null', 'null'],
  ])('treats a stored session with %s as none', (_, raw) => {
    const browser = fakeBrowser();
    browser.items.set(SESSION_STORAGE_KEY, raw);
    expect(createBrowserSessionStore(browser).readSession()).toBeNull();
  });

  it('reads a session without a coach', () => {
    const browser = fakeBrowser();
    browser.items.set(SESSION_STORAGE_KEY, JSON.stringify({ ...session, coach: null, extra: 1 }));
    expect(createBrowserSessionStore(browser).readSession()).toEqual({ ...session, coach: null });
  });

  it('keeps only the permissions the app knows', () => {
    const browser = fakeBrowser();
    const stored = { ...session, permissions: [...session.permissions, 'flyToTheMoon'] };
    browser.items.set(SESSION_STORAGE_KEY, JSON.stringify(stored));
    expect(createBrowserSessionStore(browser).readSession()).toEqual(session);
  });
});
