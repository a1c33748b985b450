import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import { loadEventsPageActor, type EventRow } from '../../machines/actors/staff/events';
import { oneOf, rowsOf, uuid, yesNo } from '../../machines/list.machine';
import { FilterForm, FilterInput, FilterSelect } from '../staff/FilterParts';
import { formatDateTime } from '../staff/format';
import { ListFrame } from '../staff/ListParts';
import { useFilterOptions, useUrlList } from '../staff/useUrlList';
import { eventActionLabel } from './actions';
import './events.css';

/**
 * The filters of `/events` as URL keys: `view` picks the activity feed (default) or the audit
 * trail; client, coach and appointment narrow both; `showAllEvents` only the feed.
 */
export const EVENT_FILTERS = z.object({
  view: oneOf(['audit']),
  client: uuid,
  coach: uuid,
  appointment: uuid,
  showAllEvents: yesNo,
});

/** `/events` (admins and onboarding managers): what happened, newest first, in German. */
export default function EventsListPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({ path: '/events', filters: EVENT_FILTERS, loadPage: loadEventsPageActor });
  const options = useFilterOptions(true);
  const filters = useSelector(actorRef, (s) => s.context.query.filters);
  const rows = useSelector(actorRef, (s) => rowsOf<EventRow>(s.context));
  const coachName = (id: string | null) => (id ? (options.coaches.find((c) => c.id === id)?.name ?? null) : null);

  return (
    <article className="staff-page">
      <h1>{t('eventList.title')}</h1>
      <FilterForm actorRef={actorRef} filtersKey={JSON.stringify(filters)} label={t('list.filters')}>
        <FilterSelect
          name="view"
          label={t('eventList.filters.view')}
          value={filters.view}
          anyLabel={t('eventList.filters.feed')}
          options={[{ value: 'audit', label: t('eventList.filters.audit') }]}
        />
        <FilterSelect
          name="coach"
          label={t('eventList.filters.coach')}
          value={filters.coach}
          options={options.coaches.map((c) => ({ value: c.id, label: c.name }))}
        />
        <FilterInput name="client" label={t('eventList.filters.client')} value={filters.client} maxLength={36} />
        <FilterInput name="appointment" label={t('eventList.filters.appointment')} value={filters.appointment} maxLength={36} />
        {filters.view === 'audit' ? null : (
          <FilterSelect
            name="showAllEvents"
            label={t('eventList.filters.showAllEvents')}
            value={filters.showAllEvents === 'true' ? 'true' : undefined}
            anyLabel={t('eventList.filters.importantOnly')}
            options={[{ value: 'true', label: t('eventList.filters.allEvents') }]}
          />
        )}
      </FilterForm>
      <p className="field-hint">{t('eventList.idHint')}</p>
      <ListFrame actorRef={actorRef} label={t('eventList.results')} emptyText={t('eventList.empty')}>
        <div className="table-scroll">
          <table className="staff-table">
            <caption className="visually-hidden">{t('eventList.results')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('eventList.columns.when')}</th>
                <th scope="col">{t('eventList.columns.what')}</th>
                <th scope="col">{t('eventList.columns.who')}</th>
                <th scope="col">{t('eventList.columns.about')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => {
                const code = e.kind === 'feed' ? e.type : e.action;
                const coach = coachName(e.coachId);
                return (
                  <tr key={e.id}>
                    <td>{formatDateTime(e.occurredAt)}</td>
                    <td>
                      {eventActionLabel(t, code)}
                      {/* Only the full feed mixes important and other events. */}
                      {e.kind === 'feed' && e.important && filters.showAllEvents === 'true' ? ` (${t('eventList.important')})` : ''}
                    </td>
                    <td>{e.actor ? `${e.actor.email} (${t(`roles.${e.actor.role}`)})` : t('eventList.system')}</td>
                    <td>
                      <ul className="plain-list">
                        {e.clientId ? (
                          <li>
                            <Link href={`/clients/${e.clientId}`}>{t('eventList.client')}</Link>{' '}
                            {filters.client === e.clientId ? null : (
                              <button
                                type="button"
                                className="button-link"
                                onClick={() => actorRef.send({ type: 'list.filter', filters: { client: e.clientId! } })}
                              >
                                {t('eventList.onlyClient')}
                              </button>
                            )}
                          </li>
                        ) : null}
                        {e.appointmentId ? (
                          <li>
                            <Link href={`/appointments/${e.appointmentId}`}>{t('eventList.appointment')}</Link>
                          </li>
                        ) : null}
                        {e.coachId ? (
                          <li>
                            <Link href={`/coaches/${e.coachId}`}>{coach ?? t('eventList.coach')}</Link>
                          </li>
                        ) : null}
                      </ul>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </ListFrame>
    </article>
  );
}
