// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { routePatterns, routes } from '../../src/app/routes';
import { menuItems } from '../../src/app/menu';
import { ADMIN_LINKS, availableAdminLinks } from '../../src/views/admin/admin-links';

/** The hub of the superadmin area lists only pages the app has; the menu leads to it. */
describe('the superadmin hub', () => {
  it('lists the pages whose route exists, in order', () => {
    const hrefs = (patterns: string[]) =>
      availableAdminLinks(patterns, 'SUPERADMIN').map((l) => l.href);
    expect(hrefs(['/admin', '/admin/webhooks', '/admin/email-sync'])).toEqual([
      '/admin/webhooks',
      '/admin/email-sync',
    ]);
    expect(hrefs(['/admin/research-export', '/admin/webhooks', '/admin/mailing-list'])).toEqual([
      '/admin/webhooks',
      '/admin/mailing-list',
      '/admin/research-export',
    ]);
    expect(hrefs([])).toEqual([]);
  });

  it('has routes for its own pages, and the menu item "Verwaltung" for SUPERADMIN', () => {
    const patterns = routePatterns();
    for (const path of [
      '/admin',
      '/admin/webhooks',
      '/admin/webhooks/:type',
      '/admin/email-sync',
    ]) {
      expect(patterns).toContain(path);
    }
    expect(availableAdminLinks(patterns, 'SUPERADMIN').map((l) => l.href)).toEqual(
      ADMIN_LINKS.map((l) => l.href).filter((href) => patterns.includes(href)),
    );
    const admin = menuItems().find((item) => item.id === 'admin');
    expect(admin).toMatchObject({
      href: '/admin',
      roles: ['ADMIN'],
      labelKey: 'common:menu.admin',
    });
  });

  it("shows an admin the pages an admin may open, not the superadmin's webhooks and e-mail sync", () => {
    const patterns = routePatterns();
    const hrefs = availableAdminLinks(patterns, 'ADMIN').map((l) => l.href);
    expect(hrefs).toEqual([
      '/admin/mailing-list',
      '/admin/insurers',
      '/admin/campaigns',
      '/admin/research-export',
    ]);
    // Each listed page lets that role in: the hub promises nothing the route refuses.
    const routeRoles = (path: string) => routes.find((r) => r.path === path)?.access?.roles;
    for (const href of hrefs) expect(routeRoles(href)).toContain('ADMIN');
    for (const href of ['/admin/webhooks', '/admin/email-sync'])
      expect(routeRoles(href)).toEqual(['SUPERADMIN']);
    expect(availableAdminLinks(patterns, 'COACH')).toEqual([]);
  });
});
