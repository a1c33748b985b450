import { describe, expect, it } from 'vitest';
import type { Parser } from 'wouter';
import { decideAccess, hasRole } from '../../src/app/access';
import { menuItems, routeExists, visibleMenu } from '../../src/app/menu';
import { routes } from '../../src/app/routes';
import { safeReturnTo } from '../../src/lib/return-to';
import type { Role, SessionInfo } from '../../src/machines/session.machine';
import type { SessionStatus } from '../../src/views/session-status';

// wouter's default parser (wouter/src/index.js uses regexparam's parse), as the app's <Router>.
import { parse } from 'regexparam';

const parser: Parser = (route, loose) => {
  const { pattern, keys } = parse(route, !!loose);
  return { pattern, keys: keys.map(String) };
};

// Every route the product will have (the specification's screens and routes), as if every area had
// landed.
const ALL_ROUTES = [
  '/',
  '/login',
  '/calendar',
  '/appointments',
  '/appointments/new',
  '/appointments/new-adhoc',
  '/clients',
  '/clients/new',
  '/billing',
  '/billing/invoices',
  '/billing/rules',
  '/availability',
  '/coaches',
  '/events',
  '/users',
  '/admin/insurers',
  '/admin/campaigns',
  '/dashboard',
  '/review',
  '/profile',
  '/help',
  '/support',
];

const ids = (role: Role, patterns = ALL_ROUTES, analyticsUrl?: string) => {
  const menu = visibleMenu(role, menuItems({ analyticsUrl }), patterns, parser);
  return {
    quick: menu.quick.map((i) => i.id),
    main: menu.main.map((i) => i.id),
    bottom: menu.bottom.map((i) => i.id),
  };
};

describe("menu per role, as the specification's roles and permissions says", () => {
  it('ADMIN sees every item but the dashboard', () => {
    expect(ids('ADMIN', ALL_ROUTES, 'https://analytics.example/')).toEqual({
      quick: ['newClient', 'openClients', 'newMeeting', 'newAdhocMeeting', 'review'],
      main: [
        'calendar',
        'appointments',
        'clients',
        'billing',
        'invoices',
        'billingRules',
        'availability',
        'coaches',
        'events',
        'users',
        'insurers',
        'campaigns',
      ],
      bottom: ['profile', 'help', 'support', 'analytics'],
    });
  });

  it('ONBOARDING_MANAGER sees no invoices and no billing rules', () => {
    const menu = ids('ONBOARDING_MANAGER', ALL_ROUTES, 'https://analytics.example/');
    expect(menu.main).toEqual([
      'calendar',
      'appointments',
      'clients',
      'billing',
      'availability',
      'coaches',
      'events',
      'users',
    ]);
    expect(menu.quick).toContain('newAdhocMeeting');
    expect(menu.bottom).toContain('analytics');
  });

  it('COACH sees the coaching items only', () => {
    expect(ids('COACH', ALL_ROUTES, 'https://analytics.example/')).toEqual({
      quick: ['newMeeting', 'review'],
      main: ['calendar', 'appointments', 'clients', 'billing', 'availability'],
      bottom: ['profile', 'help', 'support'],
    });
  });

  it('SUPERADMIN passes every check, dashboard included', () => {
    const menu = ids('SUPERADMIN', ALL_ROUTES, 'https://analytics.example/');
    expect(menu.main).toContain('dashboard');
    expect(menu.main).toContain('billingRules');
    expect(menu.main).toContain('invoices');
    expect(menu.quick).toHaveLength(5);
    expect(menu.bottom).toHaveLength(4);
  });

  it('a client (NONE) gets no menu', () => {
    expect(ids('NONE')).toEqual({ quick: [], main: [], bottom: [] });
  });

  it('shows an item only when its route exists, and analytics only when configured', () => {
    expect(ids('ADMIN', ['/', '/help', '/support', '/dashboard'])).toEqual({
      quick: [],
      main: [],
      bottom: ['help', 'support'],
    });
  });

  it('today the app has help, support and dashboard routes; open-clients needs /clients', () => {
    const patterns = routes.map((r) => r.path);
    expect(routeExists('/help', patterns, parser)).toBe(true);
    expect(routeExists('/dashboard', patterns, parser)).toBe(true);
    expect(
      routeExists('/clients?sortBy=createdAt&sortOrder=desc&limit=10', ['/clients'], parser),
    ).toBe(true);
    expect(routeExists('/clients?sortBy=createdAt', ['/coaches'], parser)).toBe(false);
  });
});

const session = (role: Role, active = true): SessionStatus => ({
  kind: 'signedIn',
  session: { userId: 'u', role, active, coach: null } satisfies SessionInfo,
});

describe('route guards', () => {
  const access = (path: string) => routes.find((r) => r.path === path)!.access;

  it('open pages render for everyone', () => {
    expect(decideAccess({ kind: 'signedOut' }, access('/'), '/')).toEqual({ kind: 'render' });
  });

  it('signed-out users go to /login, inactive ones to /notactive, carrying the page', () => {
    expect(decideAccess({ kind: 'signedOut' }, access('/help'), '/help?x=1')).toEqual({
      kind: 'redirect',
      to: '/login?returnTo=%2Fhelp%3Fx%3D1',
    });
    expect(decideAccess(session('COACH', false), access('/support'), '/support')).toEqual({
      kind: 'redirect',
      to: '/notactive?returnTo=%2Fsupport',
    });
  });

  it('/notactive needs a session but not an active account; /activate also opens signed out', () => {
    expect(decideAccess(session('NONE', false), access('/notactive'), '/notactive')).toEqual({
      kind: 'render',
    });
    expect(decideAccess(session('COACH', false), access('/activate'), '/activate')).toEqual({
      kind: 'render',
    });
    expect(decideAccess({ kind: 'signedOut' }, access('/notactive'), '/notactive')).toMatchObject({
      kind: 'redirect',
      to: '/login?returnTo=%2Fnotactive',
    });
    // The invitation mail's link: a new staff member registers on /activate itself.
    expect(decideAccess({ kind: 'signedOut' }, access('/activate'), '/activate')).toEqual({
      kind: 'render',
    });
  });

  it('roles follow the specification: dashboard for SUPERADMIN only, help for staff', () => {
    for (const role of ['COACH', 'ADMIN', 'ONBOARDING_MANAGER', 'NONE'] as const) {
      expect(decideAccess(session(role), access('/dashboard'), '/dashboard')).toEqual({
        kind: 'forbidden',
      });
    }
    expect(decideAccess(session('SUPERADMIN'), access('/dashboard'), '/dashboard')).toEqual({
      kind: 'render',
    });
    expect(decideAccess(session('COACH'), access('/help'), '/help')).toEqual({ kind: 'render' });
    expect(decideAccess(session('SUPERADMIN'), access('/help'), '/help')).toEqual({
      kind: 'render',
    });
    expect(decideAccess(session('NONE'), access('/help'), '/help')).toEqual({ kind: 'forbidden' });
  });

  it('waits while the session is being checked; partial login is its own answer', () => {
    expect(decideAccess({ kind: 'pending' }, access('/help'), '/help')).toEqual({ kind: 'wait' });
    expect(decideAccess({ kind: 'partial' }, access('/help'), '/help')).toEqual({
      kind: 'partial',
    });
  });

  it('hasRole lets SUPERADMIN pass any list', () => {
    expect(hasRole('SUPERADMIN', ['ADMIN'])).toBe(true);
    expect(hasRole('COACH', ['ADMIN'])).toBe(false);
  });

  it('follows only returnTo paths of this app', () => {
    expect(safeReturnTo('/calendar?view=week')).toBe('/calendar?view=week');
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example', '', null]) {
      expect(safeReturnTo(bad)).toBeUndefined();
    }
  });
});
