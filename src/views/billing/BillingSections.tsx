import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import './billing-sections.css';

/**
 * The two halves of billing for admins, as tabs: items (`/billing`) and invoices
 * (`/billing/invoices`); the page shown is the tab with `aria-current`.
 */
export function BillingSections({ current }: { current: 'items' | 'invoices' }) {
  const { t } = useTranslation('invoices');
  const links = [
    { key: 'items', href: '/billing', label: t('sections.items') },
    { key: 'invoices', href: '/billing/invoices', label: t('sections.invoices') },
  ] as const;
  return (
    <nav className="billing-sections" aria-label={t('sections.label')}>
      {links.map((link) => (
        <Link
          key={link.key}
          href={link.href}
          aria-current={current === link.key ? 'page' : undefined}
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
