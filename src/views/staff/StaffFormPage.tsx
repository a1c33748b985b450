import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { FormSchema, FormValues } from '../../forms/form-schema';
import type { recordFormMachine } from '../../machines/record-form.machine';
import type { RouteEffects } from '../../machines/wiring/effects';
import { useRouteActor } from '../route-actor';
import { type FormActor, RecordForm } from './FormParts';
import './staff.css';

/** A staff form with "Abbrechen" beside submit, back to where the person came from. */
export function CancellableForm({
  actorRef,
  label,
  submitLabel,
  cancelHref,
  children,
}: {
  actorRef: FormActor;
  label: string;
  submitLabel: string;
  cancelHref: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('staff');
  return (
    <RecordForm
      actorRef={actorRef}
      label={label}
      submitLabel={submitLabel}
      actions={
        <Link href={cancelHref} className="button">
          {t('form.cancel')}
        </Link>
      }
    >
      {children}
    </RecordForm>
  );
}

/**
 * The page of a record's form, new (`id` null: empty values, "anlegen", cancel back to the list)
 * or editing (loads the record, "Speichern", cancel back to the record at `listHref/id`, or to
 * `recordHref`'s, e.g. the list where records have no page of their own).
 */
export function NewOrEditFormPage({
  id,
  wire,
  schema,
  newValues,
  titles,
  createLabel,
  listHref,
  recordHref = (recordId) => `${listHref}/${recordId}`,
  children,
}: {
  id: string | null;
  wire: (effects: RouteEffects, id: string | null) => typeof recordFormMachine;
  schema: FormSchema;
  newValues: () => FormValues;
  titles: { new: string; edit: string };
  createLabel: string;
  listHref: string;
  /** Where cancelling an edit goes back to (default: the record at `listHref/id`). */
  recordHref?: (id: string) => string;
  children: (actorRef: FormActor) => ReactNode;
}) {
  const { t } = useTranslation('staff');
  const actorRef = useRouteActor((effects) => wire(effects, id), {
    input: id === null ? { id: null, schema, values: newValues() } : { id, schema },
  });
  const title = id === null ? titles.new : titles.edit;
  return (
    <article className="staff-page">
      <h1>{title}</h1>
      <CancellableForm
        actorRef={actorRef}
        label={title}
        submitLabel={id === null ? createLabel : t('form.save')}
        cancelHref={id === null ? listHref : recordHref(id)}
      >
        {children(actorRef)}
      </CancellableForm>
    </article>
  );
}
