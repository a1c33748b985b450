/** Small fields shared by the clinical templates. */

/** A checkbox with its label, for the clinical templates (risk flag, consents). */
export function CheckField({
  id,
  label,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="check-field">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A whole number from `min` to `max`, or nothing (undefined) when the field is emptied. */
export function NumberField({
  id,
  label,
  value,
  min,
  max,
  readOnly,
  onChange,
}: {
  id: string;
  label: string;
  value: unknown;
  min: number;
  max: number;
  readOnly: boolean;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        readOnly={readOnly}
        value={typeof value === 'number' ? value : ''}
        onChange={(e) =>
          onChange(
            e.target.value === ''
              ? undefined
              : Math.max(min, Math.min(max, Math.round(Number(e.target.value)))),
          )
        }
      />
    </div>
  );
}

/** A text of at most `max` characters over `rows` lines. */
export function TextAreaField({
  id,
  label,
  value,
  max,
  rows,
  readOnly,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  max: number;
  rows: number;
  readOnly: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={value}
        readOnly={readOnly}
        maxLength={max}
        rows={rows}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
