import type { ReactNode } from 'react';
import { Link } from 'wouter';

export interface ActionLink {
  href: string;
  label: string;
  /** The page's main way on (one per row). */
  primary?: boolean;
}

/**
 * A row of links drawn as buttons ("Neuer Coach", "Anmelden"): the page's ways on. A `nav`
 * when it has an accessible name, a plain block otherwise.
 */
export function ActionLinks({
  links,
  className,
  label,
}: {
  links: readonly ActionLink[];
  className: string;
  label?: string;
}) {
  const items = links.map((link) => (
    <Link
      key={link.href}
      href={link.href}
      className={link.primary ? 'button button-primary' : 'button'}
    >
      {link.label}
    </Link>
  ));
  return label ? (
    <nav className={className} aria-label={label}>
      {items}
    </nav>
  ) : (
    <div className={className}>{items}</div>
  );
}

/** The frame of a staff list page: its title, then its ways on (if any), then the list. */
export function StaffListPage({
  title,
  links,
  children,
}: {
  title: string;
  links?: readonly ActionLink[];
  children: ReactNode;
}) {
  return (
    <article className="staff-page">
      <h1>{title}</h1>
      {links ? <ActionLinks className="page-actions" links={links} /> : null}
      {children}
    </article>
  );
}
