import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { newUserSchema, newUserValues } from '../../forms/user-staff-form';
import { clipboardCopyMachine } from '../../machines/wiring/auth';
import { wireUserNew } from '../../machines/wiring/user-form';
import { useRouteActor } from '../route-actor';
import { TextField, type FormActor } from '../staff/FormParts';
import { CancellableForm } from '../staff/StaffFormPage';
import { useFilterOptions } from '../staff/useUrlList';
import { RoleAndCoachFields } from './UserFields';
import '../staff/staff.css';
import './users.css';

type Created = components['schemas']['CreateUserResponse'];

/** `?coachId=…&email=…` from a coach's page ("Zugang für diesen Coach anlegen"). */
const PREFILL = z.object({
  coachId: z.uuid().optional().catch(undefined),
  email: z.string().max(254).optional().catch(undefined),
});

/**
 * `/users/new`: e-mail, role and coach record; on success the activation code, shown once
 * (it lives only in this page's form machine: leaving the page forgets it), with a copy button.
 */
export default function UserNewPage() {
  const [round, setRound] = useState(0);
  return <UserNew key={round} onAnother={() => setRound((n) => n + 1)} />;
}

function UserNew({ onAnother }: { onAnother: () => void }) {
  const { t } = useTranslation('staff');
  const search = useSearch();
  const [prefill] = useState(() => PREFILL.parse(Object.fromEntries(new URLSearchParams(search))));
  const options = useFilterOptions(true);
  const actorRef = useRouteActor(wireUserNew, {
    input: { id: null, schema: newUserSchema, values: newUserValues(prefill) },
  });
  const created = useSelector(actorRef, (s) =>
    s.hasTag('done') ? (s.context.record as Created) : null,
  );
  const title = t('user.newTitle');

  return (
    <article className="staff-page">
      <h1>{title}</h1>
      {created ? (
        <ActivationCode created={created} onAnother={onAnother} />
      ) : (
        <CancellableForm
          actorRef={actorRef}
          label={title}
          submitLabel={t('user.create')}
          cancelHref="/users"
        >
          <NewUserFields actorRef={actorRef} coaches={options.coaches} />
        </CancellableForm>
      )}
    </article>
  );
}

function NewUserFields({
  actorRef,
  coaches,
}: {
  actorRef: FormActor;
  coaches: ReturnType<typeof useFilterOptions>['coaches'];
}) {
  const { t } = useTranslation('staff');
  return (
    <>
      <TextField
        actorRef={actorRef}
        name="email"
        type="email"
        label={t('user.email')}
        hint={t('user.emailHint')}
        required
        maxLength={254}
        autoComplete="off"
      />
      <RoleAndCoachFields actorRef={actorRef} coaches={coaches} />
    </>
  );
}

function ActivationCode({ created, onAnother }: { created: Created; onAnother: () => void }) {
  const { t } = useTranslation('staff');
  const copy = useActorRef(clipboardCopyMachine);
  const copied = useSelector(copy, (s) => s.hasTag('copied'));
  const failed = useSelector(copy, (s) => s.hasTag('copyFailed'));
  return (
    <section className="detail-section notice notice-success" aria-labelledby="activation-code">
      <h2 id="activation-code">{t('user.codeTitle')}</h2>
      <p>{t('user.codeIntro', { email: created.user.email })}</p>
      <p>
        <code className="activation-code" data-testid="activation-code">
          {created.activationCode}
        </code>{' '}
        <button
          type="button"
          className="button"
          onClick={() => copy.send({ type: 'copy', text: created.activationCode })}
        >
          {t('user.copy')}
        </button>{' '}
        <span role="status" aria-live="polite">
          {copied ? t('user.copied') : failed ? t('user.copyFailed') : ''}
        </span>
      </p>
      <p>
        <strong>{t('user.codeOnce')}</strong>
      </p>
      <div className="form-actions">
        <Link href="/users" className="button button-primary">
          {t('user.backToList')}
        </Link>
        <button type="button" className="button" onClick={onAnother}>
          {t('user.another')}
        </button>
      </div>
    </section>
  );
}
