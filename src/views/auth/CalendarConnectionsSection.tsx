import { useSelector } from '@xstate/react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { tKey } from '../../i18n/keys';
import type {
  CalendarConnection,
  calendarConnectionsMachine,
  ConnectField,
} from '../../machines/calendar-connections.machine';
import { wireCalendarConnections } from '../../machines/wiring/calendar-connections';
import { useRouteActor } from '../route-actor';
import { errorKey } from '../staff/ListParts';
import { formatDateTime } from '../staff/format';
import './calendar-connections.css';

type Actor = ActorRefFrom<typeof calendarConnectionsMachine>;

const FIELD_ERRORS: Record<string, string> = {
  value_missing: tKey('scheduling:connections.fieldErrors.value_missing'),
  invalid_server_url: tKey('scheduling:connections.fieldErrors.invalid_server_url'),
  too_many: tKey('scheduling:connections.fieldErrors.too_many'),
  calendar_unauthorized: tKey('scheduling:connections.fieldErrors.calendar_unauthorized'),
  calendar_server_refused: tKey('scheduling:connections.fieldErrors.calendar_server_refused'),
  calendar_unreachable: tKey('scheduling:connections.fieldErrors.calendar_unreachable'),
  calendar_not_caldav: tKey('scheduling:connections.fieldErrors.calendar_not_caldav'),
};
const fieldErrorKey = (code: string) =>
  FIELD_ERRORS[code] ?? tKey('scheduling:connections.fieldErrors.invalid');

const SYNC_ERRORS: Record<string, string> = {
  calendar_unauthorized: tKey('scheduling:connections.syncErrors.calendar_unauthorized'),
  calendar_unreachable: tKey('scheduling:connections.syncErrors.calendar_unreachable'),
  calendar_not_caldav: tKey('scheduling:connections.syncErrors.calendar_not_caldav'),
  calendar_failed: tKey('scheduling:connections.syncErrors.calendar_failed'),
};

/** The connection's switches, each saved on its own. */
const SETTINGS = [
  {
    key: 'allDayBlocks',
    label: tKey('scheduling:connections.allDay'),
    hint: tKey('scheduling:connections.allDayHint'),
  },
  {
    key: 'shareClientFirstName',
    label: tKey('scheduling:connections.firstName'),
    hint: tKey('scheduling:connections.firstNameHint'),
  },
] as const;
const STATUS: Record<CalendarConnection['status'], string> = {
  ok: tKey('scheduling:connections.status.ok'),
  pending: tKey('scheduling:connections.status.pending'),
  failing: tKey('scheduling:connections.status.failing'),
};
const BADGE: Record<CalendarConnection['status'], string> = {
  ok: 'badge badge-ok',
  pending: 'badge',
  failing: 'badge badge-cancelled',
};

const HELP = ['nextcloud', 'apple', 'google', 'outlook', 'other'] as const;

/** The host of a server address, as the coach recognises the connection. */
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "vor 5 Minuten", "gestern", "gerade eben" style: how old the kept copy is. */
export function relativeTime(iso: string, now: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  // A sync newer than the last read (clocks differ a little) is "now", never in the future.
  const ms = Math.min(0, new Date(iso).getTime() - now);
  for (const [unit, size] of UNITS) {
    if (Math.abs(ms) >= size) return format.format(Math.round(ms / size), unit);
  }
  return format.format(0, 'second');
}

/**
 * "Verbundene Kalender" on a coach's profile: each CalDAV connection with its state and its
 * calendars (which block the free times, which receives the appointments), "Jetzt abgleichen"
 * and "Trennen", and the form that connects another account, with what to enter per provider.
 */
export function CalendarConnectionsSection({ coachId }: { coachId: string }) {
  const { t } = useTranslation('scheduling');
  const actorRef = useRouteActor(wireCalendarConnections, { input: { coachId } });
  const state = useSelector(actorRef, (s) => s);
  const { connections, error, formOpen } = state.context;
  const send = actorRef.send;
  const loaded = !state.hasTag('loading') && !state.hasTag('error');
  return (
    <section
      className="detail-section calendar-connections"
      aria-labelledby="calendar-connections-title"
    >
      <h2 id="calendar-connections-title">{t('connections.title')}</h2>
      <p>{t('connections.intro')}</p>
      {state.hasTag('loading') ? <p role="status">{t('connections.loading')}</p> : null}
      {state.hasTag('error') ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(error))}</p>
          <button type="button" className="button" onClick={() => send({ type: 'list.retry' })}>
            {t('connections.retry')}
          </button>
        </div>
      ) : null}
      {loaded && error ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(error))}</p>
        </div>
      ) : null}
      {loaded && connections.length === 0 && !formOpen ? <p>{t('connections.none')}</p> : null}
      {connections.length > 0 ? (
        <ul className="calendar-connections-list">
          {connections.map((connection) => (
            <li key={connection.id}>
              <ConnectionCard actorRef={actorRef} connection={connection} />
            </li>
          ))}
        </ul>
      ) : null}
      {loaded ? <ConnectForm actorRef={actorRef} /> : null}
      <h3>{t('connections.helpTitle')}</h3>
      <dl className="calendar-feed-apps calendar-connections-help">
        {HELP.map((provider) => (
          <div key={provider}>
            <dt>{t(`connections.help.${provider}Title`)}</dt>
            <dd>{t(`connections.help.${provider}`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ConnectionCard({
  actorRef,
  connection,
}: {
  actorRef: Actor;
  connection: CalendarConnection;
}) {
  const { t, i18n } = useTranslation('scheduling');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const busy = state.hasTag('busy');
  const mine = state.context.target === connection.id;
  const host = hostOf(connection.serverUrl);
  const id = `calendar-connection-${connection.id}`;
  const anyBlocks = connection.calendars.some((c) => c.blocks);
  const receiving = connection.calendars.find((c) => c.receives)?.id ?? null;
  const confirming = mine && state.hasTag('confirmDisconnect');
  const watched = connection.id in state.context.watching;
  return (
    <article
      className="calendar-connection"
      aria-labelledby={`${id}-title`}
      aria-busy={busy || undefined}
    >
      <header className="calendar-connection-head">
        <h3
          id={`${id}-title`}
          aria-label={t('connections.connectionLabel', { host, username: connection.username })}
        >
          {host}
        </h3>
        <span className={BADGE[connection.status]}>{t(STATUS[connection.status])}</span>
      </header>
      <p className="calendar-connection-account">
        {t('connections.account', { username: connection.username })}
      </p>
      <div className="calendar-connection-state" role="status" aria-live="polite">
        {connection.lastSyncedAt ? (
          <p>
            {t('connections.lastSynced', {
              relative: relativeTime(connection.lastSyncedAt, state.context.readAt, i18n.language),
              when: formatDateTime(connection.lastSyncedAt),
            })}{' '}
            {t('connections.busyTimes', { count: connection.busyTimes })}
          </p>
        ) : (
          <p>{anyBlocks ? t('connections.neverSynced') : t('connections.chooseFirst')}</p>
        )}
        {watched ? <p className="field-hint">{t('connections.checking')}</p> : null}
      </div>
      {connection.status === 'failing' ? (
        <div className="notice notice-error calendar-connection-error" role="alert">
          <p>
            {t(
              SYNC_ERRORS[connection.errorCode ?? ''] ??
                'scheduling:connections.syncErrors.calendar_failed',
            )}
          </p>
          {connection.lastSyncedAt ? (
            <p className="field-hint">{t('connections.keepsLastCopy')}</p>
          ) : null}
        </div>
      ) : null}
      {connection.writeErrorCode ? (
        <div className="notice notice-error calendar-connection-error" role="alert">
          <p>{t('connections.writeFailing')}</p>
          <p className="field-hint">
            {t(
              SYNC_ERRORS[connection.writeErrorCode] ??
                'scheduling:connections.syncErrors.calendar_failed',
            )}
          </p>
        </div>
      ) : null}
      <fieldset className="calendar-connection-calendars" disabled={busy}>
        <legend>{t('connections.calendarsTitle')}</legend>
        <ul>
          {connection.calendars.map((calendar) => (
            <li key={calendar.id}>
              <span className="calendar-connection-name">{calendar.displayName}</span>
              <label className="check-field">
                <input
                  type="checkbox"
                  checked={calendar.blocks}
                  aria-label={`${calendar.displayName}: ${t('connections.blocks')}`}
                  onChange={(e) =>
                    send({
                      type: 'calendar.block',
                      connectionId: connection.id,
                      calendarId: calendar.id,
                      blocks: e.target.checked,
                    })
                  }
                />
                <span aria-hidden="true">{t('connections.blocks')}</span>
              </label>
              <label className="check-field">
                <input
                  type="radio"
                  name={`${id}-receiving`}
                  checked={calendar.receives}
                  aria-label={`${calendar.displayName}: ${t('connections.receives')}`}
                  onChange={() =>
                    send({
                      type: 'calendar.receive',
                      connectionId: connection.id,
                      calendarId: calendar.id,
                    })
                  }
                />
                <span aria-hidden="true">{t('connections.receives')}</span>
              </label>
            </li>
          ))}
          <li className="calendar-connection-none">
            <label className="check-field">
              <input
                type="radio"
                name={`${id}-receiving`}
                checked={receiving === null}
                onChange={() =>
                  send({ type: 'calendar.receive', connectionId: connection.id, calendarId: null })
                }
              />
              {t('connections.receivesNone')}
            </label>
          </li>
        </ul>
        <p className="field-hint">{t('connections.receivesHint')}</p>
        {SETTINGS.map(({ key, label, hint }) => (
          <Fragment key={key}>
            <label className="check-field calendar-connection-allday">
              <input
                type="checkbox"
                checked={connection[key]}
                onChange={(e) =>
                  send({
                    type: 'setting.set',
                    connectionId: connection.id,
                    setting: { [key]: e.target.checked },
                  })
                }
              />
              {t(label)}
            </label>
            <p className="field-hint">{t(hint)}</p>
          </Fragment>
        ))}
      </fieldset>
      {confirming ? (
        <div className="confirm-box" role="alertdialog" aria-labelledby={`${id}-question`}>
          <p id={`${id}-question`}>
            <strong>{t('connections.disconnectQuestion', { host })}</strong>
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-danger"
              onClick={() => send({ type: 'disconnect.confirm' })}
            >
              {t('connections.disconnectConfirm')}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'disconnect.abort' })}
            >
              {t('connections.disconnectAbort')}
            </button>
          </div>
        </div>
      ) : (
        <div className="form-actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => send({ type: 'connection.sync', connectionId: connection.id })}
          >
            {mine && busy ? t('connections.syncing') : t('connections.sync')}
          </button>
          <button
            type="button"
            className="button calendar-connection-disconnect"
            disabled={busy}
            onClick={() => send({ type: 'connection.disconnect', connectionId: connection.id })}
          >
            {t('connections.disconnect')}
          </button>
          {busy && state.context.change?.connectionId === connection.id ? (
            <span role="status">{t('connections.saving')}</span>
          ) : null}
        </div>
      )}
    </article>
  );
}

function ConnectForm({ actorRef }: { actorRef: Actor }) {
  const { t } = useTranslation('scheduling');
  const state = useSelector(actorRef, (s) => s);
  const { draft, fieldErrors, formOpen } = state.context;
  const send = actorRef.send;
  const connecting = state.hasTag('connecting');
  if (!formOpen) {
    return (
      <button
        type="button"
        className="button"
        disabled={!state.can({ type: 'form.open' })}
        onClick={() => send({ type: 'form.open' })}
      >
        {t('connections.addAnother')}
      </button>
    );
  }
  const field = (name: ConnectField, type: string, autoComplete: string, hint?: string) => {
    const inputId = `calendar-connect-${name}`;
    const error = fieldErrors[name];
    const described = [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null]
      .filter(Boolean)
      .join(' ');
    return (
      <div className="field">
        <label htmlFor={inputId}>{t(`connections.${name}`)}</label>
        <input
          id={inputId}
          type={type}
          value={draft[name]}
          autoComplete={autoComplete}
          spellCheck={false}
          required
          disabled={connecting}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
          onChange={(e) => send({ type: 'form.change', field: name, value: e.target.value })}
        />
        {hint ? (
          <p id={`${inputId}-hint`} className="field-hint">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${inputId}-error`} className="field-error" role="alert">
            {t(fieldErrorKey(error))}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <form
      className="calendar-connect-form"
      aria-labelledby="calendar-connect-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'form.submit' });
      }}
    >
      <h3 id="calendar-connect-title">{t('connections.formTitle')}</h3>
      {field('serverUrl', 'url', 'off', t('connections.serverUrlHint'))}
      {field('username', 'text', 'off')}
      {field('password', 'password', 'new-password', t('connections.passwordHint'))}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={connecting}>
          {connecting ? t('connections.connecting') : t('connections.connect')}
        </button>
        {state.can({ type: 'form.close' }) ? (
          <button type="button" className="button" onClick={() => send({ type: 'form.close' })}>
            {t('connections.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
