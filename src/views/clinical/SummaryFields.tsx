import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { CheckField, NumberField, TextAreaField } from './TemplateFields';
import type { FieldsProps } from './DocumentEditorView';

/** The appointment summary's template: SOAP or DAP sections, progress, homework, next steps, risk. */

export const SECTIONS = {
  SOAP: ['subjective', 'objective', 'assessment', 'plan'],
  DAP: ['data', 'assessment', 'plan'],
} as const;
type Format = keyof typeof SECTIONS;

const SECTION_LABELS: Record<string, string> = {
  subjective: tKey('clinical:summary.sections.subjective'),
  objective: tKey('clinical:summary.sections.objective'),
  data: tKey('clinical:summary.sections.data'),
  assessment: tKey('clinical:summary.sections.assessment'),
  plan: tKey('clinical:summary.sections.plan'),
};

/** German names of the summary's fields, for the conflict view. */
export const SUMMARY_FIELD_LABELS: Record<string, string> = {
  format: tKey('clinical:summary.format'),
  sections: tKey('clinical:summary.sectionsTitle'),
  goalProgress: tKey('clinical:summary.goalProgress'),
  homework: tKey('clinical:summary.homework'),
  nextSteps: tKey('clinical:summary.nextSteps'),
  riskFlag: tKey('clinical:summary.riskFlag'),
  riskNote: tKey('clinical:summary.riskNote'),
  durationMin: tKey('clinical:summary.durationMin'),
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function SummaryFields({ content, readOnly, change }: FieldsProps) {
  const { t } = useTranslation('clinical');
  const format: Format = content.format === 'DAP' ? 'DAP' : 'SOAP';
  const sections = (content.sections ?? {}) as Record<string, string | undefined>;
  const area = (
    id: string,
    label: string,
    value: string,
    onChange: (v: string) => void,
    max = 5000,
  ) => (
    <TextAreaField
      key={id}
      id={id}
      label={label}
      value={value}
      max={max}
      rows={4}
      readOnly={readOnly}
      onChange={onChange}
    />
  );
  return (
    <>
      <fieldset>
        <legend>{t('summary.sectionsTitle')}</legend>
        <div className="field">
          <label htmlFor="summary-format">{t('summary.format')}</label>
          <select
            id="summary-format"
            value={format}
            disabled={readOnly}
            onChange={(e) => {
              const next = e.target.value as Format;
              // Keep what fits the other template (assessment, plan; S+O ↔ D by hand).
              const kept = Object.fromEntries(
                Object.entries(sections).filter(([k]) =>
                  (SECTIONS[next] as readonly string[]).includes(k),
                ),
              );
              change('format', next);
              change('sections', kept);
            }}
          >
            <option value="SOAP">{t('summary.formats.SOAP')}</option>
            <option value="DAP">{t('summary.formats.DAP')}</option>
          </select>
        </div>
        {SECTIONS[format].map((name) =>
          area(
            `summary-${name}`,
            t(SECTION_LABELS[name]!),
            sections[name] ?? '',
            (v) => change('sections', { ...sections, [name]: v }),
            10000,
          ),
        )}
      </fieldset>
      <fieldset>
        <legend>{t('summary.progressTitle')}</legend>
        {area('summary-goalProgress', t('summary.goalProgress'), text(content.goalProgress), (v) =>
          change('goalProgress', v),
        )}
        {area('summary-homework', t('summary.homework'), text(content.homework), (v) =>
          change('homework', v),
        )}
        {area('summary-nextSteps', t('summary.nextSteps'), text(content.nextSteps), (v) =>
          change('nextSteps', v),
        )}
        <NumberField
          id="summary-durationMin"
          label={t('summary.durationMin')}
          value={content.durationMin}
          min={0}
          max={600}
          readOnly={readOnly}
          onChange={(value) => change('durationMin', value)}
        />
      </fieldset>
      <fieldset>
        <legend>{t('summary.riskTitle')}</legend>
        <CheckField
          id="summary-riskFlag"
          label={t('summary.riskFlag')}
          checked={content.riskFlag === true}
          disabled={readOnly}
          onChange={(checked) => change('riskFlag', checked)}
        />
        {content.riskFlag === true
          ? area('summary-riskNote', t('summary.riskNote'), text(content.riskNote), (v) =>
              change('riskNote', v),
            )
          : null}
      </fieldset>
    </>
  );
}
