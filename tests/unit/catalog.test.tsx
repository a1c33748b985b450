import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  campaignFormSchema,
  campaignFormValues,
  insurerFormSchema,
  newInsurerValues,
} from '../../src/forms/catalog-form';
import {
  clientFormSchema,
  clientFormValues,
  newClientValues,
} from '../../src/forms/client-staff-form';
import { createI18n } from '../../src/i18n';
import { filterCatalog } from '../../src/machines/actors/staff/catalog';
import { recordFormMachine, zodFieldErrors } from '../../src/machines/record-form.machine';
import { CatalogChoices } from '../../src/views/clients/CatalogChoices';
import { readLocales } from '../support/locales';

/**
 * The maintained lists: the insurer and campaign form rules, the lists' search and
 * status filter, and the client form's selects that keep a value the list no longer offers.
 */

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

describe('insurer form', () => {
  it('wants a name and a nine-digit IK number', () => {
    const bad = insurerFormSchema.safeParse({
      ...newInsurerValues(),
      name: '  ',
      ikNumber: '12345678',
    });
    expect(bad.success).toBe(false);
    expect(zodFieldErrors(bad.error!)).toEqual({
      name: 'value_missing',
      ikNumber: 'invalid_ik_number',
    });
    expect(
      insurerFormSchema.parse({ ...newInsurerValues(), name: ' hkk ', ikNumber: '101570104' }),
    ).toEqual({
      name: 'hkk',
      ikNumber: '101570104',
      active: true,
      street: null,
      postalCode: null,
      city: null,
      country: 'DE',
      invoiceEmail: null,
    });
  });

  it('takes the invoice address: a German postal code has five digits, the e-mail must be one', () => {
    const base = { ...newInsurerValues(), name: 'hkk', ikNumber: '101570104' };
    const bad = insurerFormSchema.safeParse({
      ...base,
      postalCode: '2819',
      invoiceEmail: 'rechnung@',
    });
    expect(bad.success).toBe(false);
    expect(zodFieldErrors(bad.error!)).toMatchObject({
      postalCode: 'invalid_postal_code_de',
      invoiceEmail: 'invalid_email',
    });
    expect(i18n.t('catalog:fieldErrors.postalCodeDe')).toMatch(/fünf Ziffern/);
    // Abroad another format is fine.
    expect(
      insurerFormSchema.safeParse({ ...base, country: 'at', postalCode: '1010' }).success,
    ).toBe(true);
    expect(
      insurerFormSchema.parse({
        ...base,
        street: ' Martinistr. 26 ',
        postalCode: '28195',
        city: 'Bremen',
        invoiceEmail: 'rechnung@hkk.de',
      }),
    ).toMatchObject({
      street: 'Martinistr. 26',
      postalCode: '28195',
      city: 'Bremen',
      country: 'DE',
      invoiceEmail: 'rechnung@hkk.de',
    });
  });
});

describe('campaign form', () => {
  it('sends whole Berlin days: the start at midnight, the end at the midnight after the last day', () => {
    const body = campaignFormSchema.parse({
      code: 'sommer-26',
      name: 'Sommer',
      description: '',
      active: true,
      startsOn: '2026-06-01',
      endsOn: '2026-10-25',
      street: '',
      postalCode: '',
      city: '',
      country: '',
      invoiceEmail: '',
    });
    expect(body).toEqual({
      street: null,
      postalCode: null,
      city: null,
      country: 'DE',
      invoiceEmail: null,
      code: 'sommer-26',
      name: 'Sommer',
      description: null,
      active: true,
      startsAt: '2026-05-31T22:00:00Z',
      endsAt: '2026-10-25T23:00:00Z',
    });
  });

  it('shows the stored period as the days it covers (round trip, across the October clock change)', () => {
    const values = campaignFormValues({
      id: 'c',
      code: 'x',
      name: 'X',
      description: null,
      active: true,
      startsAt: '2026-05-31T22:00:00Z',
      endsAt: '2026-10-25T23:00:00Z',
      street: 'Hauptstr. 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      invoiceEmail: null,
    });
    expect(values).toMatchObject({
      street: 'Hauptstr. 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      invoiceEmail: '',
    });
    expect(values).toMatchObject({ startsOn: '2026-06-01', endsOn: '2026-10-25' });
  });

  it('names a bad code and an end before the start', () => {
    const r = campaignFormSchema.safeParse({
      code: 'mit leerzeichen',
      name: 'X',
      description: '',
      active: true,
      startsOn: '2026-06-02',
      endsOn: '2026-06-01',
    });
    expect(r.success).toBe(false);
    expect(zodFieldErrors(r.error!)).toMatchObject({ code: 'invalid_campaign_code' });
    const order = campaignFormSchema.safeParse({
      street: '',
      postalCode: '',
      city: '',
      country: 'DE',
      invoiceEmail: '',
      code: 'ok',
      name: 'X',
      description: '',
      active: true,
      startsOn: '2026-06-02',
      endsOn: '2026-06-01',
    });
    expect(zodFieldErrors(order.error!)).toEqual({ endsOn: 'end_before_start' });
  });
});

describe('the lists filter and page what the API returns whole', () => {
  const rows = [
    { id: '1', name: 'AOK Bayern', active: true },
    { id: '2', name: 'BARMER', active: false },
    { id: '3', name: 'AOK Nordost', active: true },
  ];
  const query = (filters: Record<string, string>, page = 1, limit = 1) => ({
    filters,
    page,
    limit,
  });
  it('by words, status and page', () => {
    expect(filterCatalog(rows, (r) => r.name, query({ search: 'aok' }, 2))).toEqual({
      rows: [rows[2]],
      itemCount: 2,
    });
    expect(
      filterCatalog(rows, (r) => r.name, query({ active: 'false' }, 1, 10)).rows.map((r) => r.id),
    ).toEqual(['2']);
  });
});

describe('client form: insurer and campaign from the lists, existingClientOfCoachId', () => {
  const options = {
    coaches: [],
    insurers: ['AOK Bayern', 'BARMER'],
    campaigns: [
      { code: 'herbst', name: 'Herbstaktion' },
      { code: 'alt', name: 'Altaktion' },
    ],
    inactiveInsurers: ['BARMER'],
    inactiveCampaigns: ['alt'],
  };

  const renderWith = (values: Record<string, string | boolean>) => {
    const actor = createActor(recordFormMachine, {
      input: { id: null, schema: clientFormSchema, values: { ...newClientValues(), ...values } },
    }).start();
    render(
      <I18nextProvider i18n={i18n}>
        <CatalogChoices
          actorRef={actor}
          options={options}
          insurerLabel="Krankenkasse"
          campaignLabel="Kampagne"
        />
      </I18nextProvider>,
    );
    const labels = (name: string) =>
      [...(screen.getByLabelText(name) as HTMLSelectElement).options].map((o) => o.textContent);
    return labels;
  };

  it('offers the active entries only', () => {
    const labels = renderWith({});
    expect(labels('Krankenkasse')).toEqual(['Keine Angabe', 'AOK Bayern']);
    expect(labels('Kampagne')).toEqual(['Keine Kampagne', 'Herbstaktion']);
  });

  it("keeps the client's inactive or unlisted value as a choice", () => {
    const labels = renderWith({ insurer: 'BARMER', campaign: 'sommer-alt' });
    expect(labels('Krankenkasse')).toEqual(['Keine Angabe', 'BARMER (inaktiv)', 'AOK Bayern']);
    expect(labels('Kampagne')).toEqual([
      'Keine Kampagne',
      'sommer-alt (nicht in der gepflegten Liste)',
      'Herbstaktion',
    ]);
    expect((screen.getByLabelText('Krankenkasse') as HTMLSelectElement).value).toBe('BARMER');
  });

  it('carries existingClientOfCoachId both ways', () => {
    const coach = '6f1c2f55-8d1e-4f52-9a0e-0c1c2f558d1e';
    expect(
      clientFormSchema.parse({
        ...newClientValues(),
        firstName: 'A',
        lastName: 'B',
        existingClientOfCoachId: coach,
      }),
    ).toMatchObject({
      existingClientOfCoachId: coach,
    });
    expect(
      clientFormSchema.parse({ ...newClientValues(), firstName: 'A', lastName: 'B' }),
    ).toMatchObject({
      existingClientOfCoachId: null,
    });
    const values = clientFormValues({ existingClientOfCoachId: coach } as Parameters<
      typeof clientFormValues
    >[0]);
    expect(values.existingClientOfCoachId).toBe(coach);
  });
});
