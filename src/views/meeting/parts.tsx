import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { berlinDate, berlinTime, formatDate } from '../../../shared/time';
import { ROOM_CONTAINER_ID, type MeetingError } from '../../machines/meeting/shared';
import './meeting.css';

/** Shared pieces of the meeting pages. */

const ERRORS: Record<string, string> = {
  no_meeting_code: tKey('meeting:errors.no_meeting_code'),
  invalid_meeting_code: tKey('meeting:errors.invalid_meeting_code'),
  rate_limited: tKey('meeting:errors.rate_limited'),
  network_error: tKey('meeting:errors.network_error'),
  meeting_not_open: tKey('meeting:errors.meeting_not_open'),
  appointment_cancelled: tKey('meeting:errors.appointment_cancelled'),
  meeting_not_video: tKey('meeting:errors.meeting_not_video'),
  video_unavailable: tKey('meeting:errors.video_unavailable'),
};
const GENERIC = tKey('meeting:errors.generic');

export const errorKey = (error: MeetingError | null) => ERRORS[error?.code ?? ''] ?? GENERIC;

export const TYPE_LABELS: Record<string, string> = {
  initial: tKey('meeting:appointment.types.initial'),
  first: tKey('meeting:appointment.types.first'),
  followup: tKey('meeting:appointment.types.followup'),
  'first-arztkonsultation': tKey('meeting:appointment.types.first-arztkonsultation'),
  'followup-arztkonsultation': tKey('meeting:appointment.types.followup-arztkonsultation'),
  adhoc: tKey('meeting:appointment.types.adhoc'),
};

export const dateOf = (iso: string) => formatDate(berlinDate(iso));
export const timeOf = (iso: string) => berlinTime(iso);

/** `dd.MM.yyyy, HH:mm–HH:mm Uhr` in Berlin time. */
export function When({ startDate, endDate }: { startDate: string; endDate: string }) {
  const { t } = useTranslation('meeting');
  return (
    <>
      {t('appointment.when', {
        date: dateOf(startDate),
        start: timeOf(startDate),
        end: timeOf(endDate),
      })}
    </>
  );
}

/** `1:02:03` or `04:05` for a number of seconds. */
export function formatCountdown(totalSeconds: number): string {
  const s = Math.max(0, totalSeconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}

export function ErrorNotice({
  error,
  onRetry,
}: {
  error: MeetingError | null;
  onRetry?: (() => void) | undefined;
}) {
  const { t } = useTranslation('meeting');
  return (
    <div className="notice notice-error" role="alert">
      <p>{t(errorKey(error))}</p>
      {onRetry ? (
        <button type="button" className="button button-primary" onClick={onRetry}>
          {t('errors.retry')}
        </button>
      ) : null}
    </div>
  );
}

export function Busy({ label }: { label: string }) {
  return (
    <p className="meeting-busy" role="status" aria-live="polite">
      {label}
    </p>
  );
}

/**
 * Where the video room goes. Always rendered (hidden until the room is there), so the room
 * actor finds it as soon as the machine enters the room.
 */
function RoomContainer({ visible }: { visible: boolean }) {
  const { t } = useTranslation('meeting');
  return (
    <section
      id={ROOM_CONTAINER_ID}
      className="meeting-room"
      aria-label={t('room.label')}
      hidden={!visible}
    />
  );
}

/**
 * The frame of the client's and the coach's meeting page: the heading, the page's parts, the
 * error with its retry once the machine failed, and the container the video room goes into
 * (the page widens to it while in the room).
 */
export function MeetingFrame({
  title,
  inRoom,
  failed,
  error,
  onRetry,
  children,
}: {
  title: string;
  inRoom: boolean;
  failed: boolean;
  error: MeetingError | null;
  onRetry: () => void;
  children: ReactNode;
}) {
  return (
    <article className={inRoom ? 'meeting-page in-room' : 'meeting-page'}>
      <h1>{title}</h1>
      {children}
      {failed ? <ErrorNotice error={error} onRetry={onRetry} /> : null}
      <RoomContainer visible={inRoom} />
    </article>
  );
}

/** The meeting-code form of the client's and the coach's start pages. */
export function CodeForm({
  code,
  error,
  hint,
  hintClassName,
  submitLabel,
  busy,
  onChange,
  onSubmit,
}: {
  code: string;
  error: MeetingError | null;
  hint: string;
  hintClassName?: string;
  submitLabel: string;
  /** While the code is checked: the field and button are disabled. */
  busy?: boolean;
  onChange: (value: string) => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('meeting');
  const codeId = useId();
  return (
    <form
      className="meeting-code-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <div className="field">
        <label htmlFor={codeId}>{t('code.label')}</label>
        <input
          id={codeId}
          name="meetingCode"
          value={code}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${codeId}-error` : `${codeId}-hint`}
          onChange={(e) => onChange(e.target.value)}
        />
        <p id={`${codeId}-hint`} className={hintClassName}>
          {hint}
        </p>
        {error ? (
          <p id={`${codeId}-error`} className="field-error" role="alert">
            {t(errorKey(error))}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

/** Waiting for the room to open: the opening time and, when given, the running countdown. */
/** Up to this long before the room opens, the page says "Gleich geht es los". */
export const SOON_S = 60 * 60;

export function WaitingNotice({
  joinableFrom,
  countdownSeconds,
  soon,
  children,
}: {
  joinableFrom: string;
  /** Seconds until the room opens; null shows only the opening time. */
  countdownSeconds: number | null;
  /** Opens within the hour: days ahead, "it starts in a moment" would be untrue. */
  soon: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation('meeting');
  return (
    <section className="notice" aria-live="polite">
      <h2>{t(soon ? 'waiting.title' : 'waiting.titleLater')}</h2>
      <p>{t('waiting.opensAt', { date: dateOf(joinableFrom), time: timeOf(joinableFrom) })}</p>
      {countdownSeconds !== null ? (
        <p className="meeting-countdown" data-testid="countdown" role="timer" aria-live="off">
          {t('waiting.countdown', { countdown: formatCountdown(countdownSeconds) })}
        </p>
      ) : null}
      {children}
    </section>
  );
}

export function CancelledNotice() {
  const { t } = useTranslation('meeting');
  return (
    <div className="notice notice-error" role="alert">
      <p>{t('state.cancelled')}</p>
    </div>
  );
}

export function OverNotice() {
  const { t } = useTranslation('meeting');
  return (
    <div className="notice" role="status">
      <p>{t('state.over')}</p>
    </div>
  );
}

/** xodosign and arztkonsultation meetings: the link to the external meeting, if there is one. */
export function ExternalNotice({ url }: { url: string | null | undefined }) {
  const { t } = useTranslation('meeting');
  return (
    <div className="notice">
      <p>{t('state.external')}</p>
      {url ? <ExternalLink url={url} /> : <p>{t('state.externalMissing')}</p>}
    </div>
  );
}

export function ExternalLink({ url }: { url: string }) {
  const { t } = useTranslation('meeting');
  return (
    <a className="button button-primary" href={url} target="_blank" rel="noopener noreferrer">
      {t('state.externalOpen')}
    </a>
  );
}
