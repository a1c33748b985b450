import type { Faker } from '@faker-js/faker';
import { CAMPAIGN_ADDRESSES, CAMPAIGNS, DEMO_DOMAIN, INSURER_ADDRESSES, INSURERS } from '../data';
import type { DemoData } from '../types';

/** The insurers and campaigns, each with its invoice address and invoice e-mail. */
export function catalogue(f: Faker, out: DemoData) {
  for (const insurer of INSURERS) {
    out.insurers.push({
      id: f.string.uuid(),
      name: insurer.name,
      ikNumber: insurer.ikNumber,
      active: true,
      ...INSURER_ADDRESSES[insurer.name],
      invoiceEmail: `rechnung-${insurer.ikNumber}@kassen.${DEMO_DOMAIN}`,
    });
  }
  for (const c of CAMPAIGNS) {
    out.campaigns.push({
      id: f.string.uuid(),
      code: c.code,
      name: c.name,
      description: c.description,
      active: c.active,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
      ...CAMPAIGN_ADDRESSES[c.code],
      invoiceEmail: `rechnung-${c.code}@sponsoren.${DEMO_DOMAIN}`,
    });
  }
}
