import { useSelector } from '@xstate/react';
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { tKey } from '../../i18n/keys';
import {
  selectedOccurrence,
  WEEKDAYS,
  type AvailabilityDraft,
  type availabilityWeekMachine,
  type DraftField,
} from '../../machines/availability-week.machine';
import type { Weekday } from '../../../shared/recurrence';
import {
  berlinDate,
  daysFrom,
  formatDate,
  parsePlainDate,
  todayInBerlin,
} from '../../../shared/time';
import {
  CoachPicker,
  errorKey,
  PeriodNav,
  RetryNotice,
  timeRange,
  useDayLabel,
  useWeekTitle,
  weekdayShortKey,
  ZoneNote,
} from '../calendar/parts';
import { ConfirmActions } from '../parts/ConfirmActions';
import '../calendar/scheduling.css';

type WeekActor = ActorRefFrom<typeof availabilityWeekMachine>;
type WeekSnapshot = SnapshotFrom<typeof availabilityWeekMachine>;

const FIELD_ERRORS: Record<string, string> = {
  invalid_date: tKey('scheduling:availability.errors.invalidDate'),
  invalid_time: tKey('scheduling:availability.errors.invalidTime'),
  end_before_start: tKey('scheduling:availability.errors.endBeforeStart'),
  value_missing: tKey('scheduling:availability.errors.daysMissing'),
  invalid_interval: tKey('scheduling:availability.errors.invalidInterval'),
  until_before_start: tKey('scheduling:availability.errors.untilBeforeStart'),
  invalid_count: tKey('scheduling:availability.errors.invalidCount'),
  value_too_long: tKey('scheduling:availability.errors.tooLong'),
};
const FIELD_ERROR_GENERIC = tKey('scheduling:availability.errors.invalid');

const DAY_KEYS: Record<Weekday, string> = {
  MO: tKey('scheduling:weekdays.short.1'),
  TU: tKey('scheduling:weekdays.short.2'),
  WE: tKey('scheduling:weekdays.short.3'),
  TH: tKey('scheduling:weekdays.short.4'),
  FR: tKey('scheduling:weekdays.short.5'),
  SA: tKey('scheduling:weekdays.short.6'),
  SU: tKey('scheduling:weekdays.short.7'),
};

/** The week of one coach: blocks per day, the selected block's actions, the editor. */
export function AvailabilityWeekView({
  actorRef,
  browserZone,
}: {
  actorRef: WeekActor;
  browserZone: string;
}) {
  const { t } = useTranslation('scheduling');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const weekTitle = useWeekTitle();
  const { context } = state;

  return (
    <article className="scheduling-page availability-page">
      <h1>{t('availability.title')}</h1>
      <p className="lead">{t('availability.intro')}</p>
      <ZoneNote browserZone={browserZone} />
      {context.canPickCoach && context.coaches.length > 0 ? (
        <CoachPicker
          coaches={context.coaches}
          value={context.coachId}
          disabled={!state.can({ type: 'coach.select', coachId: context.coachId ?? '' })}
          onChange={(coachId) => coachId && send({ type: 'coach.select', coachId })}
        />
      ) : null}
      {state.hasTag('noCoach') ? (
        <p className="notice" role="status">
          {context.canPickCoach ? t('availability.noCoaches') : t('availability.noCoachRecord')}
        </p>
      ) : state.hasTag('coachesError') ? (
        <RetryNotice error={state.context.error} onRetry={() => send({ type: 'retry' })} />
      ) : state.hasTag('loadingCoaches') ? (
        <div className="page-loading" aria-busy="true" />
      ) : (
        <>
          <PeriodNav
            title={weekTitle(context.weekStart)}
            previousLabel={t('nav.previousWeek')}
            nextLabel={t('nav.nextWeek')}
            disabled={!state.can({ type: 'week.next' })}
            onPrevious={() => send({ type: 'week.previous' })}
            onToday={() => send({ type: 'week.today', today: todayInBerlin() })}
            onNext={() => send({ type: 'week.next' })}
          />
          {state.hasTag('weekError') ? (
            <RetryNotice error={state.context.error} onRetry={() => send({ type: 'retry' })} />
          ) : null}
          <WeekGrid snapshot={state} send={send} busy={state.hasTag('loadingWeek')} />
          {state.hasTag('selection') ? <SelectedPanel snapshot={state} send={send} /> : null}
          {state.hasTag('editing') ? <Editor snapshot={state} send={send} /> : null}
        </>
      )}
    </article>
  );
}

function WeekGrid({
  snapshot,
  send,
  busy,
}: {
  snapshot: WeekSnapshot;
  send: WeekActor['send'];
  busy: boolean;
}) {
  const { t } = useTranslation('scheduling');
  const dayLabel = useDayLabel();
  const { context } = snapshot;
  const days = daysFrom(context.weekStart, 7);
  const canSelect = snapshot.hasTag('selectable');
  return (
    <div className="week-grid" aria-busy={busy}>
      {days.map((day) => {
        const blocks = context.availabilities
          .flatMap((a) => a.occurrences.map((o) => ({ a, o })))
          .filter(({ o }) => berlinDate(o.startDate).equals(day))
          .sort((x, y) => (x.o.startDate < y.o.startDate ? -1 : 1));
        const label = dayLabel(day);
        const headingId = `day-${day.toString()}`;
        return (
          <section key={day.toString()} className="day-column" aria-labelledby={headingId}>
            <h3 id={headingId}>
              <abbr title={label}>{t(weekdayShortKey(day))}</abbr> {day.day}.{day.month}.
            </h3>
            {blocks.length === 0 ? <p className="day-empty">{t('availability.dayEmpty')}</p> : null}
            <ul className="day-events">
              {blocks.map(({ a, o }) => {
                const selected =
                  context.selection?.availabilityId === a.id &&
                  context.selection.occurrenceDate === o.occurrenceDate;
                return (
                  <li key={`${a.id}:${o.occurrenceDate}`}>
                    <button
                      type="button"
                      className={`event event-${a.kind === 'available' ? 'availability' : 'blocker'}`}
                      aria-pressed={selected}
                      disabled={!canSelect}
                      onClick={() =>
                        send({
                          type: 'occurrence.select',
                          availabilityId: a.id,
                          occurrenceDate: o.occurrenceDate,
                        })
                      }
                    >
                      <span className="event-time">{timeRange(o.startDate, o.endDate)}</span>{' '}
                      <span className="event-title">
                        {a.kind === 'available'
                          ? t('availability.kindAvailable')
                          : t('availability.kindBlocker')}
                      </span>
                      {a.note ? (
                        <>
                          {' · '}
                          <span className="event-note">{a.note}</span>
                        </>
                      ) : null}{' '}
                      <span className="event-meta">
                        ({a.recurrence ? t('availability.weekly') : t('availability.once')}
                        {o.modified ? `, ${t('availability.modified')}` : ''})
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
            <button
              type="button"
              className="button add-block"
              disabled={!canSelect}
              aria-label={t('availability.addOn', { day: label })}
              onClick={() => send({ type: 'block.create', date: day.toString() })}
            >
              {t('availability.add')}
            </button>
          </section>
        );
      })}
    </div>
  );
}

function SelectedPanel({ snapshot, send }: { snapshot: WeekSnapshot; send: WeekActor['send'] }) {
  const { t } = useTranslation('scheduling');
  const dayLabel = useDayLabel();
  const found = selectedOccurrence(snapshot.context);
  const headingId = useId();
  if (!found) return null;
  const { availability: a, occurrence: o } = found;
  const recurring = a.recurrence !== null;
  const confirming = snapshot.hasTag('confirmDelete');
  const deleting = snapshot.hasTag('deleting');
  const scope = snapshot.context.deleteScope;
  return (
    <section className="detail-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('availability.selectedTitle')}</h2>
      <dl>
        <dt>{t('availability.kind')}</dt>
        <dd>
          {a.kind === 'available' ? t('availability.kindAvailable') : t('availability.kindBlocker')}
        </dd>
        <dt>{t('availability.when')}</dt>
        <dd>
          {dayLabel(berlinDate(o.startDate))}, {timeRange(o.startDate, o.endDate)}
        </dd>
        <dt>{t('availability.repeat')}</dt>
        <dd>
          {recurring
            ? t('availability.weeklySince', {
                date: formatDate(parsePlainDate(a.startDay) ?? berlinDate(o.startDate)),
              })
            : t('availability.once')}
        </dd>
        {a.note ? (
          <>
            <dt>{t('availability.note')}</dt>
            <dd>{a.note}</dd>
          </>
        ) : null}
      </dl>
      {confirming ? (
        <div className="confirm" role="alertdialog" aria-labelledby={`${headingId}-confirm`}>
          <p id={`${headingId}-confirm`}>
            {scope === 'occurrence'
              ? t('availability.confirmDeleteOccurrence')
              : t('availability.confirmDeleteSeries')}
          </p>
          {snapshot.context.error ? (
            <p className="field-error" role="alert">
              {t(errorKey(snapshot.context.error))}
            </p>
          ) : null}
          <ConfirmActions
            busy={deleting}
            label={t('availability.deleteConfirm')}
            onConfirm={() => send({ type: 'delete.confirm' })}
            backLabel={t('cancel')}
            onBack={() => send({ type: 'delete.cancel' })}
          />
        </div>
      ) : (
        <div className="form-actions">
          <button type="button" className="button" onClick={() => send({ type: 'edit.series' })}>
            {recurring ? t('availability.editSeries') : t('availability.edit')}
          </button>
          {recurring ? (
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'edit.occurrence' })}
            >
              {t('availability.editOccurrence')}
            </button>
          ) : null}
          <button type="button" className="button" onClick={() => send({ type: 'delete.series' })}>
            {recurring ? t('availability.deleteSeries') : t('availability.delete')}
          </button>
          {recurring ? (
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'delete.occurrence' })}
            >
              {t('availability.deleteOccurrence')}
            </button>
          ) : null}
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'selection.clear' })}
          >
            {t('close')}
          </button>
        </div>
      )}
    </section>
  );
}

function Editor({ snapshot, send }: { snapshot: WeekSnapshot; send: WeekActor['send'] }) {
  const { t } = useTranslation('scheduling');
  const base = useId();
  const draft = snapshot.context.draft as AvailabilityDraft;
  const errors = snapshot.context.fieldErrors;
  const saving = snapshot.hasTag('saving');
  const id = (field: string) => `${base}-${field}`;
  const change = (field: Exclude<DraftField, 'days'> | 'repeat', value: string) =>
    send({ type: 'form.change', field, value });
  const described = (field: DraftField) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id(field)}-error` } : {};
  const fieldError = (field: DraftField) =>
    errors[field] ? (
      <p id={`${id(field)}-error`} className="field-error">
        {t(FIELD_ERRORS[errors[field]] ?? FIELD_ERROR_GENERIC)}
      </p>
    ) : null;
  /** A text-like field of the draft: label, input, its error (announced by the input). */
  const field = (
    name: 'startDay' | 'startTime' | 'endTime' | 'interval' | 'until' | 'count' | 'note',
    label: ReactNode,
    props: InputHTMLAttributes<HTMLInputElement> = {},
  ) => (
    <div className="field">
      <label htmlFor={id(name)}>{label}</label>
      <input
        id={id(name)}
        {...props}
        value={draft[name]}
        onChange={(e) => change(name, e.target.value)}
        {...described(name)}
      />
      {fieldError(name)}
    </div>
  );
  const title =
    draft.mode === 'create'
      ? t('availability.form.createTitle')
      : draft.mode === 'series'
        ? t('availability.form.seriesTitle')
        : t('availability.form.occurrenceTitle');
  const seriesFields = draft.mode !== 'occurrence';
  return (
    <section className="detail-panel editor" aria-labelledby={id('title')}>
      <h2 id={id('title')}>{title}</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit' });
        }}
      >
        <fieldset disabled={saving}>
          {seriesFields ? (
            <div className="field">
              <label htmlFor={id('kind')}>{t('availability.kind')}</label>
              <select
                id={id('kind')}
                value={draft.kind}
                onChange={(e) => change('kind', e.target.value)}
              >
                <option value="available">{t('availability.kindAvailable')}</option>
                <option value="blocker">{t('availability.kindBlocker')}</option>
              </select>
            </div>
          ) : null}
          {field(
            'startDay',
            draft.mode === 'series' && draft.repeat
              ? t('availability.form.firstDay')
              : t('availability.form.day'),
            { type: 'date' },
          )}
          <div className="field-row">
            {field('startTime', t('availability.form.from'), { type: 'time' })}
            {field('endTime', t('availability.form.to'), { type: 'time' })}
          </div>
          {seriesFields ? (
            <>
              <div className="field field-check">
                <input
                  id={id('repeat')}
                  type="checkbox"
                  checked={draft.repeat}
                  onChange={(e) => change('repeat', String(e.target.checked))}
                />
                <label htmlFor={id('repeat')}>{t('availability.form.repeatWeekly')}</label>
              </div>
              {draft.repeat ? (
                <>
                  <fieldset className="weekday-choice" {...described('days')}>
                    <legend>{t('availability.form.days')}</legend>
                    {WEEKDAYS.map((day) => (
                      <label key={day} className="day-check">
                        <input
                          type="checkbox"
                          checked={draft.days.includes(day)}
                          onChange={() => send({ type: 'form.toggleDay', day })}
                        />
                        {t(DAY_KEYS[day])}
                      </label>
                    ))}
                    {fieldError('days')}
                  </fieldset>
                  {field('interval', t('availability.form.interval'), {
                    type: 'number',
                    min: 1,
                    max: 99,
                    inputMode: 'numeric',
                  })}
                  <div className="field">
                    <label htmlFor={id('endKind')}>{t('availability.form.ends')}</label>
                    <select
                      id={id('endKind')}
                      value={draft.endKind}
                      onChange={(e) => change('endKind', e.target.value)}
                    >
                      <option value="never">{t('availability.form.endsNever')}</option>
                      <option value="until">{t('availability.form.endsOn')}</option>
                      <option value="count">{t('availability.form.endsAfter')}</option>
                    </select>
                  </div>
                  {draft.endKind === 'until'
                    ? field('until', t('availability.form.until'), { type: 'date' })
                    : null}
                  {draft.endKind === 'count'
                    ? field('count', t('availability.form.count'), {
                        type: 'number',
                        min: 1,
                        max: 999,
                        inputMode: 'numeric',
                      })
                    : null}
                </>
              ) : null}
              {field('note', t('availability.note'), { maxLength: 500 })}
            </>
          ) : null}
          {snapshot.context.error ? (
            <p className="notice notice-error" role="alert">
              {t(errorKey(snapshot.context.error))}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button-primary" aria-busy={saving}>
              {saving ? t('saving') : t('save')}
            </button>
            <button type="button" className="button" onClick={() => send({ type: 'form.cancel' })}>
              {t('cancel')}
            </button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
