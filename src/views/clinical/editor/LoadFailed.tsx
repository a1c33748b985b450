import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorKey } from '../../staff/ListParts';

export function LoadFailed({
  error,
  retry,
  backHref,
  backLabel,
}: {
  error: { code: string } | null;
  retry: () => void;
  backHref: string;
  backLabel: string;
}) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const text =
    error?.code === 'appointment_not_held'
      ? t('editor.notHeld')
      : error?.code === 'not_found'
        ? t('editor.notFound')
        : ts(errorKey(error));
  return (
    <div className="notice notice-error" role="alert">
      <p>{text}</p>
      <button type="button" className="button" onClick={retry}>
        {t('editor.retry')}
      </button>{' '}
      <Link href={backHref}>{backLabel}</Link>
    </div>
  );
}
