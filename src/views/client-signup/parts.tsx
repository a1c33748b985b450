import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { useSessionStatus } from '../session-status';
import { berlinClock, groupByDay, zoneDiffers, ZONE, type FreeSlot } from '../../lib/client-slots';
import { CLIENT_SIGN_IN } from '../../lib/client-pages';
import './client.css';

const longDay = new Intl.DateTimeFormat('de-DE', {
  timeZone: ZONE,
  weekday: 'long',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const shortDay = new Intl.DateTimeFormat('de-DE', {
  timeZone: ZONE,
  weekday: 'short',
  day: '2-digit',
  month: '2-digit',
});

/** "Montag, 07.12.2026" for an instant, in Berlin. */
export const formatLongDay = (iso: string) => longDay.format(new Date(iso));
/** "Mo., 07.12." for a `YYYY-MM-DD` Berlin day (noon UTC lies on that Berlin day). */
export const formatShortDay = (day: string) => shortDay.format(new Date(`${day}T12:00:00Z`));

/** The frame of every client page. */
export function ClientPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="client-page">
      <h1>{title}</h1>
      {children}
    </article>
  );
}

// The browser's zone does not change while the page is open.
const browserZoneDiffers = zoneDiffers(
  Intl.DateTimeFormat().resolvedOptions().timeZone,
  Date.now(),
);

/** "Alle Zeiten in deutscher Zeit (Europe/Berlin)" when the browser is in another zone. */
export function ZoneNote() {
  const { t } = useTranslation('client');
  return (
    <p className="client-zone-note">
      {t(browserZoneDiffers ? 'slots.zoneNoteOther' : 'slots.zoneNote')}
    </p>
  );
}

/** Days with free slots as tabs, the chosen day's times as buttons. */
export function SlotPicker({
  slots,
  day,
  onDay,
  onSlot,
  disabled,
}: {
  slots: FreeSlot[];
  day: string | null;
  onDay: (day: string) => void;
  onSlot: (slot: FreeSlot) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('client');
  const days = useMemo(() => groupByDay(slots), [slots]);
  const current = days.find((d) => d.day === day) ?? days[0];
  return (
    <div className="client-slots">
      <ZoneNote />
      <h2 id="client-days-title">{t('slots.daysTitle')}</h2>
      <ul className="client-days" aria-labelledby="client-days-title">
        {days.map((d) => (
          <li key={d.day}>
            <button
              type="button"
              className={d.day === current?.day ? 'client-day client-day-active' : 'client-day'}
              aria-pressed={d.day === current?.day}
              disabled={disabled}
              onClick={() => onDay(d.day)}
            >
              <span>{formatShortDay(d.day)}</span>
              <span className="client-day-count">
                {t('slots.count', { count: d.slots.length })}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {current ? (
        <>
          <h2 id="client-times-title">
            {t('slots.timesTitle', { day: formatLongDay(current.slots[0]!.startDate) })}
          </h2>
          <ul className="client-times" aria-labelledby="client-times-title">
            {current.slots.map((slot) => (
              <li key={slot.startDate}>
                <button
                  type="button"
                  className="button client-time"
                  disabled={disabled}
                  onClick={() => onSlot(slot)}
                >
                  {t('slots.time', { time: berlinClock(slot.startDate) })}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** Date, time and coach of an appointment. */
export function AppointmentFacts({
  startDate,
  endDate,
  coachName,
}: {
  startDate: string;
  endDate: string;
  coachName: string;
}) {
  const { t } = useTranslation('client');
  return (
    <dl className="client-facts">
      <dt>{t('facts.date')}</dt>
      <dd>{formatLongDay(startDate)}</dd>
      <dt>{t('facts.time')}</dt>
      <dd>{t('facts.timeRange', { start: berlinClock(startDate), end: berlinClock(endDate) })}</dd>
      <dt>{t('facts.coach')}</dt>
      <dd>{coachName}</dd>
    </dl>
  );
}

/** A German message for an API error code. */
export function ErrorNotice({ code, onRetry }: { code: string; onRetry?: () => void }) {
  const { t } = useTranslation('client');
  const key = `errors.${code}`;
  return (
    <div className="notice notice-error" role="alert">
      <p>{t([key, 'errors.unknown'])}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          {t('actions.retry')}
        </button>
      ) : null}
    </div>
  );
}

/** A notice with what happened and the one way on (a link styled as the main button). */
export function LinkNotice({ text, href, label }: { text: string; href: string; label: string }) {
  return (
    <div className="notice">
      <p>{text}</p>
      <Link href={href} className="button button-primary">
        {label}
      </Link>
    </div>
  );
}

/**
 * Client pages that need a signed-in client: waits for the session, sends a signed-out person
 * to the client login (coming back here), and an account without a client record to sign-up.
 */
export function ClientGate({
  children,
  frame = (notice) => notice,
}: {
  children: ReactNode;
  /** Wraps the gate's own notices when the children bring their page frame (and heading). */
  frame?: (notice: ReactNode) => ReactNode;
}) {
  const { t } = useTranslation('client');
  const status = useSessionStatus();
  const [pathname] = useLocation();
  const search = useSearch();
  const here = search ? `${pathname}?${search}` : pathname;
  if (status.kind === 'signedIn' && status.session.active) return <>{children}</>;
  const notice =
    status.kind === 'pending' ? (
      <p role="status">{t('gate.loading')}</p>
    ) : status.kind === 'signedIn' ? (
      <LinkNotice text={t('gate.noClient')} href="/client-signup" label={t('gate.toSignup')} />
    ) : (
      <div className="notice">
        <p>{t('gate.signIn')}</p>
        <Link
          href={`${CLIENT_SIGN_IN}?returnTo=${encodeURIComponent(here)}`}
          className="button button-primary"
        >
          {t('gate.toLogin')}
        </Link>
      </div>
    );
  return <>{frame(notice)}</>;
}
