import type { Parser } from 'wouter';
import { analyticsUrl } from '../../lib/config';
import { menuItems, visibleMenu } from '../menu';
import type { Role } from '../../machines/session.machine';

/**
 * The staff menu and its view, loaded only once someone active is signed in (AppShell), so
 * that signed-out visitors, /login and /client-signup do not load them (bench/web.ts).
 */
export { Navigation } from './Navigation';

/**
 * The menu the role sees (the specification's screens and roles) among the app's route patterns.
 */
export const menuFor = (role: Role, patterns: readonly string[], parser: Parser) =>
  visibleMenu(role, menuItems({ analyticsUrl: analyticsUrl() }), patterns, parser);
