import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { practiceSettingsFormSchema } from '../../forms/practice-settings-form';
import { PRACTICE_SETTINGS_ID } from '../../machines/actors/practice';
import { wirePracticeSettingsForm } from '../../machines/wiring/practice';
import { TextField } from '../staff/FormParts';
import { NewOrEditFormPage } from '../staff/StaffFormPage';

/**
 * `/admin/practice` (SUPERADMIN): the practice's details, which the imprint, the
 * privacy notice, every invoice and XRechnung and the e-mails use.
 */
export default function PracticeSettingsPage() {
  const { t } = useTranslation(['admin', 'legal']);
  return (
    <NewOrEditFormPage
      id={PRACTICE_SETTINGS_ID}
      wire={(effects) => wirePracticeSettingsForm(effects)}
      schema={practiceSettingsFormSchema}
      newValues={() => ({})}
      titles={{ new: t('practice.title'), edit: t('practice.title') }}
      createLabel={t('practice.title')}
      listHref="/admin"
      recordHref={() => '/admin'}
    >
      {(actorRef) => (
        <>
          <p className="field-hint">
            {t('practice.intro')} <Link href="/impressum">{t('legal:breadcrumbs.imprint')}</Link>
            {' · '}
            <Link href="/datenschutz">{t('legal:breadcrumbs.privacy')}</Link>
          </p>
          <fieldset className="form-fields">
            <legend>{t('practice.legends.practice')}</legend>
            <TextField
              actorRef={actorRef}
              name="name"
              label={t('practice.fields.name')}
              hint={t('practice.hints.name')}
              required
              maxLength={100}
              autoComplete="organization"
            />
            <TextField
              actorRef={actorRef}
              name="street"
              label={t('practice.fields.street')}
              required
              maxLength={200}
              autoComplete="street-address"
            />
            <TextField
              actorRef={actorRef}
              name="postalCode"
              label={t('practice.fields.postalCode')}
              required
              maxLength={5}
              autoComplete="postal-code"
            />
            <TextField
              actorRef={actorRef}
              name="city"
              label={t('practice.fields.city')}
              required
              maxLength={100}
              autoComplete="address-level2"
            />
            <TextField
              actorRef={actorRef}
              name="email"
              type="email"
              label={t('practice.fields.email')}
              hint={t('practice.hints.email')}
              required
              maxLength={254}
              autoComplete="email"
            />
            <TextField
              actorRef={actorRef}
              name="phone"
              type="tel"
              label={t('practice.fields.phone')}
              required
              maxLength={40}
              autoComplete="tel"
            />
            <TextField
              actorRef={actorRef}
              name="managingPerson"
              label={t('practice.fields.managingPerson')}
              hint={t('practice.hints.managingPerson')}
              maxLength={200}
              autoComplete="off"
            />
          </fieldset>
          <fieldset className="form-fields">
            <legend>{t('practice.legends.register')}</legend>
            <p className="field-hint">{t('practice.hints.register')}</p>
            <TextField
              actorRef={actorRef}
              name="registerCourt"
              label={t('practice.fields.registerCourt')}
              maxLength={100}
              autoComplete="off"
            />
            <TextField
              actorRef={actorRef}
              name="registerNumber"
              label={t('practice.fields.registerNumber')}
              hint={t('practice.hints.registerNumber')}
              maxLength={40}
              autoComplete="off"
            />
            <TextField
              actorRef={actorRef}
              name="vatId"
              label={t('practice.fields.vatId')}
              hint={t('practice.hints.vatId')}
              maxLength={15}
              autoComplete="off"
            />
            <TextField
              actorRef={actorRef}
              name="taxNumber"
              label={t('practice.fields.taxNumber')}
              hint={t('practice.hints.taxNumber')}
              maxLength={40}
              autoComplete="off"
            />
            <TextField
              actorRef={actorRef}
              name="iban"
              label={t('practice.fields.iban')}
              hint={t('practice.hints.iban')}
              required
              maxLength={42}
              autoComplete="off"
            />
          </fieldset>
          <fieldset className="form-fields">
            <legend>{t('practice.legends.privacy')}</legend>
            <TextField
              actorRef={actorRef}
              name="dpoName"
              label={t('practice.fields.dpoName')}
              hint={t('practice.hints.dpo')}
              maxLength={200}
              autoComplete="off"
            />
            <TextField
              actorRef={actorRef}
              name="dpoEmail"
              type="email"
              label={t('practice.fields.dpoEmail')}
              maxLength={254}
              autoComplete="off"
            />
            <TextField
              actorRef={actorRef}
              name="supervisoryAuthority"
              type="textarea"
              label={t('practice.fields.supervisoryAuthority')}
              hint={t('practice.hints.supervisoryAuthority')}
              maxLength={500}
            />
          </fieldset>
        </>
      )}
    </NewOrEditFormPage>
  );
}
