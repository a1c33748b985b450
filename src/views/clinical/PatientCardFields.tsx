import { useTranslation } from 'react-i18next';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';
import { CheckField, NumberField, TextAreaField } from './TemplateFields';
import type { FieldsProps } from './DocumentEditorView';

/** The patient card's template: reason, goals, history, complaints, diagnoses, medication … */

type Card = components['schemas']['PatientCardContent'];
type Goal = NonNullable<Card['goals']>[number];
type Diagnosis = NonNullable<Card['diagnoses']>[number];
type Lifestyle = NonNullable<Card['lifestyle']>;
type Consents = NonNullable<Card['consents']>;

/** German names of the card's fields, for the conflict view. */
export const CARD_FIELD_LABELS: Record<string, string> = {
  reason: tKey('clinical:card.reason'),
  goals: tKey('clinical:card.goals'),
  history: tKey('clinical:card.history'),
  currentComplaints: tKey('clinical:card.currentComplaints'),
  diagnoses: tKey('clinical:card.diagnoses'),
  medications: tKey('clinical:card.medications'),
  mentalStressIndicator: tKey('clinical:card.mentalStressIndicator'),
  lifestyle: tKey('clinical:card.lifestyle'),
  consents: tKey('clinical:card.consents'),
};

const LIFESTYLE = {
  sleep: tKey('clinical:card.lifestyleFields.sleep'),
  activity: tKey('clinical:card.lifestyleFields.activity'),
  nutrition: tKey('clinical:card.lifestyleFields.nutrition'),
  substances: tKey('clinical:card.lifestyleFields.substances'),
} as const;
const CONSENT_LABELS = {
  research: tKey('clinical:card.consentResearch'),
  recordings: tKey('clinical:card.consentRecordings'),
} as const;
const ICD10 = '[A-Z][0-9]{2}(\\.[0-9A-Z]{1,4})?';

export function PatientCardFields({ content, readOnly, change }: FieldsProps) {
  const { t } = useTranslation('clinical');
  const card = content as Card;
  const goals = card.goals ?? [];
  const diagnoses = card.diagnoses ?? [];
  const lifestyle: Lifestyle = card.lifestyle ?? {};
  const consents: Consents = card.consents ?? {
    processing: null,
    research: false,
    recordings: false,
  };
  const area = (field: keyof Card, max: number) => (
    <TextAreaField
      id={`card-${field}`}
      label={t(CARD_FIELD_LABELS[field]!)}
      value={typeof card[field] === 'string' ? (card[field] as string) : ''}
      max={max}
      rows={3}
      readOnly={readOnly}
      onChange={(value) => change(field, value)}
    />
  );
  const setGoal = (i: number, goal: Goal) =>
    change(
      'goals',
      goals.map((g, j) => (j === i ? goal : g)),
    );
  const setDiagnosis = (i: number, d: Diagnosis) =>
    change(
      'diagnoses',
      diagnoses.map((x, j) => (j === i ? d : x)),
    );

  return (
    <>
      <fieldset>
        <legend>{t('card.intakeTitle')}</legend>
        {area('reason', 5000)}
        {area('history', 10000)}
        {area('currentComplaints', 10000)}
      </fieldset>

      <fieldset>
        <legend>{t('card.goals')}</legend>
        {goals.map((g, i) => (
          <div className="clinical-row" key={i}>
            <div className="field">
              <label htmlFor={`goal-${i}`}>{t('card.goalText', { n: i + 1 })}</label>
              <input
                id={`goal-${i}`}
                value={g.text}
                readOnly={readOnly}
                maxLength={1000}
                onChange={(e) => setGoal(i, { ...g, text: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor={`goal-horizon-${i}`}>{t('card.horizon')}</label>
              <select
                id={`goal-horizon-${i}`}
                value={g.horizon}
                disabled={readOnly}
                onChange={(e) => setGoal(i, { ...g, horizon: e.target.value as Goal['horizon'] })}
              >
                <option value="90d">{t('card.horizons.90d')}</option>
                <option value="long">{t('card.horizons.long')}</option>
              </select>
            </div>
            <RemoveRow
              readOnly={readOnly}
              onRemove={() =>
                change(
                  'goals',
                  goals.filter((_, j) => j !== i),
                )
              }
            />
          </div>
        ))}
        {readOnly || goals.length >= 20 ? null : (
          <button
            type="button"
            className="button"
            onClick={() => change('goals', [...goals, { text: '', horizon: '90d' }])}
          >
            {t('card.addGoal')}
          </button>
        )}
      </fieldset>

      <fieldset>
        <legend>{t('card.diagnoses')}</legend>
        {diagnoses.map((d, i) => (
          <div className="clinical-row" key={i}>
            <div className="field">
              <label htmlFor={`diagnosis-code-${i}`}>{t('card.icd10')}</label>
              <input
                id={`diagnosis-code-${i}`}
                value={d.code ?? ''}
                readOnly={readOnly}
                pattern={ICD10}
                maxLength={8}
                size={8}
                onChange={(e) => {
                  const code = e.target.value.trim().toUpperCase();
                  const { code: _old, ...rest } = d;
                  setDiagnosis(i, code ? { ...rest, code } : rest);
                }}
              />
            </div>
            <div className="field">
              <label htmlFor={`diagnosis-text-${i}`}>{t('card.diagnosisText', { n: i + 1 })}</label>
              <input
                id={`diagnosis-text-${i}`}
                value={d.text}
                readOnly={readOnly}
                maxLength={500}
                onChange={(e) => setDiagnosis(i, { ...d, text: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor={`diagnosis-since-${i}`}>{t('card.since')}</label>
              <input
                id={`diagnosis-since-${i}`}
                type="date"
                value={d.since ?? ''}
                readOnly={readOnly}
                onChange={(e) => {
                  const { since: _old, ...rest } = d;
                  setDiagnosis(i, e.target.value ? { ...rest, since: e.target.value } : rest);
                }}
              />
            </div>
            <RemoveRow
              readOnly={readOnly}
              onRemove={() =>
                change(
                  'diagnoses',
                  diagnoses.filter((_, j) => j !== i),
                )
              }
            />
          </div>
        ))}
        {readOnly || diagnoses.length >= 30 ? null : (
          <button
            type="button"
            className="button"
            onClick={() => change('diagnoses', [...diagnoses, { text: '' }])}
          >
            {t('card.addDiagnosis')}
          </button>
        )}
      </fieldset>

      <fieldset>
        <legend>{t('card.healthTitle')}</legend>
        {area('medications', 5000)}
        <NumberField
          id="card-mentalStressIndicator"
          label={t('card.mentalStressIndicator')}
          value={card.mentalStressIndicator}
          min={0}
          max={10}
          readOnly={readOnly}
          onChange={(value) => change('mentalStressIndicator', value)}
        />
        {(Object.keys(LIFESTYLE) as Array<keyof typeof LIFESTYLE>).map((key) => (
          <div className="field" key={key}>
            <label htmlFor={`card-lifestyle-${key}`}>{t(LIFESTYLE[key])}</label>
            <input
              id={`card-lifestyle-${key}`}
              value={lifestyle[key] ?? ''}
              readOnly={readOnly}
              maxLength={2000}
              onChange={(e) => change('lifestyle', { ...lifestyle, [key]: e.target.value })}
            />
          </div>
        ))}
      </fieldset>

      <fieldset>
        <legend>{t('card.consents')}</legend>
        <CheckField
          id="card-consent-processing"
          label={t('card.consentProcessing')}
          checked={consents.processing !== null}
          disabled={readOnly}
          onChange={(checked) =>
            change('consents', {
              ...consents,
              processing: checked ? new Date().toISOString() : null,
            })
          }
        />
        {(['research', 'recordings'] as const).map((key) => (
          <CheckField
            key={key}
            id={`card-consent-${key}`}
            label={t(CONSENT_LABELS[key])}
            checked={consents[key]}
            disabled={readOnly}
            onChange={(checked) => change('consents', { ...consents, [key]: checked })}
          />
        ))}
      </fieldset>
    </>
  );
}

/** A row's remove button; a read-only card has none. */
function RemoveRow({ readOnly, onRemove }: { readOnly: boolean; onRemove: () => void }) {
  const { t } = useTranslation('clinical');
  if (readOnly) return null;
  return (
    <button type="button" className="button" onClick={onRemove}>
      {t('card.remove')}
    </button>
  );
}
