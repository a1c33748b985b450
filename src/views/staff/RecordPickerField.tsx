import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickerOption, recordPickerMachine } from '../../machines/record-picker.machine';
import type { RouteEffects } from '../../machines/wiring/effects';
import { useRouteActor } from '../route-actor';

/**
 * A filter field that picks a record by name. Inside a `FilterForm` it is a hidden input named
 * like the URL key (the chosen id), so "Filter anwenden" sends it with the other fields; the
 * search box itself has no name and sends nothing.
 */
export function RecordPickerField({
  name,
  label,
  value,
  wire,
  onChange,
}: {
  name: string;
  label: string;
  /** The id the URL holds now. */
  value: string | undefined;
  wire: (effects: RouteEffects) => typeof recordPickerMachine;
  /** Told each choice (and `null` when it is removed), for a page that acts on it at once. */
  onChange?: (chosen: PickerOption | null) => void;
}) {
  const { t } = useTranslation('staff');
  const actorRef = useRouteActor(wire, { input: value ? { chosenId: value } : {} });
  const state = useSelector(actorRef, (s) => s);
  const { chosen, results, query } = state.context;
  const inputId = useId();
  const listId = useId();
  const hintId = useId();
  const open = state.hasTag('results');

  return (
    <div className="field record-picker">
      <label htmlFor={inputId}>{label}</label>
      <input type="hidden" name={name} value={chosen?.id ?? ''} />
      {chosen ? (
        <p className="record-picker-chosen">
          <span aria-live="polite">{t('picker.chosen', { label: chosen.label })}</span>{' '}
          <button
            type="button"
            className="button-link"
            onClick={() => {
              actorRef.send({ type: 'picker.clear' });
              onChange?.(null);
            }}
          >
            {t('picker.remove')}
          </button>
        </p>
      ) : null}
      <input
        id={inputId}
        type="search"
        autoComplete="off"
        aria-controls={listId}
        aria-describedby={hintId}
        placeholder={t('picker.placeholder')}
        value={query}
        maxLength={100}
        onChange={(e) => actorRef.send({ type: 'picker.query', query: e.target.value })}
        // Enter picks nothing by itself: it would submit the filter form half-chosen.
        onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
      />
      <p id={hintId} className="field-hint">
        {t('picker.hint')}
      </p>
      <div aria-live="polite">
        {state.hasTag('busy') ? <p className="field-hint">{t('picker.searching')}</p> : null}
        {open && results.length === 0 ? <p className="field-hint">{t('picker.none')}</p> : null}
        {state.hasTag('error') ? (
          <p className="field-error">
            {t('picker.failed')}{' '}
            <button
              type="button"
              className="button-link"
              onClick={() => actorRef.send({ type: 'picker.retry' })}
            >
              {t('picker.retry')}
            </button>
          </p>
        ) : null}
      </div>
      <ul
        id={listId}
        className="record-picker-results plain-list"
        aria-label={t('picker.results')}
        hidden={!open || results.length === 0}
      >
        {results.map((option) => (
          <li key={option.id}>
            <button
              type="button"
              className="button-link"
              onClick={() => {
                actorRef.send({ type: 'picker.choose', option });
                onChange?.(option);
              }}
            >
              {option.label}
              {option.detail ? ` (${option.detail})` : ''}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
