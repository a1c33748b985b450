import { Faker, base, de, en } from '@faker-js/faker';
import { CITIES, INSURERS } from '../data';
import { emailLocalPart, insuranceNumber, landlineNumber, mobileNumber } from './german';

export interface Person {
  id: string;
  sex: 'female' | 'male';
  firstName: string;
  lastName: string;
  email: string | null;
  yearOfBirth: number;
  street: string;
  postalCode: string;
  city: string;
  telephone: string | null;
  additionalTelephoneNumbers: string | null;
  insurer: string;
  insurerCode: string;
  relative: {
    firstName: string;
    lastName: string;
    email: string | null;
    telephone: string | null;
  } | null;
}

export function newFaker(seed: number): Faker {
  const f = new Faker({ locale: [de, en, base] });
  f.seed(seed);
  return f;
}

/** The people first, from their own generator: names stay the same whatever the date. */
export function people(f: Faker, count: number): Person[] {
  const emails = new Set<string>();
  const uniqueEmail = (local: string, domain: string) => {
    let candidate = `${local}@${domain}`;
    for (let n = 2; emails.has(candidate); n++) candidate = `${local}${n}@${domain}`;
    emails.add(candidate);
    return candidate;
  };
  const domains = ['example.com', 'example.org', 'example.net'];
  const insurerChoices = INSURERS.map((i) => ({ weight: i.weight, value: i.name }));
  const cityChoices = CITIES.map((c) => ({ weight: c.weight, value: c }));

  return Array.from({ length: count }, () => {
    const sex = f.helpers.arrayElement(['female', 'male'] as const);
    const firstName = f.person.firstName(sex);
    const lastName = f.person.lastName();
    const city = f.helpers.weightedArrayElement(cityChoices);
    const mobile = mobileNumber(f);
    const landline = landlineNumber(f, city.areaCode);
    const phoneStyle = f.helpers.weightedArrayElement([
      { weight: 6, value: 'mobile' },
      { weight: 2, value: 'landline' },
      { weight: 2, value: 'both' },
    ] as const);
    const isRelative = f.datatype.boolean({ probability: 0.12 });
    const relativeFirst = f.person.firstName();
    const relativeLast = f.datatype.boolean({ probability: 0.7 }) ? lastName : f.person.lastName();
    const emailStyle = f.helpers.arrayElement(['dot', 'initial', 'year'] as const);
    const yearOfBirth = f.number.int({ min: 1940, max: 2005 });
    const local =
      emailStyle === 'dot'
        ? emailLocalPart(firstName, lastName)
        : emailStyle === 'initial'
          ? emailLocalPart(firstName.slice(0, 1) + lastName)
          : emailLocalPart(firstName + lastName) + String(yearOfBirth).slice(2);
    const domain = f.helpers.arrayElement(domains);
    const hasEmail = !isRelative || f.datatype.boolean({ probability: 0.4 });
    const insurer = f.helpers.weightedArrayElement(insurerChoices);
    const insurerCode = insuranceNumber(
      f.string.alpha({ length: 1, casing: 'upper', exclude: ['Ä', 'Ö', 'Ü'] }),
      f.string.numeric({ length: 8 }),
    );
    const street = `${f.location.street()} ${f.location.buildingNumber()}`;
    const postalCode = String(f.number.int({ min: city.plz[0], max: city.plz[1] })).padStart(
      5,
      '0',
    );
    return {
      id: f.string.uuid(),
      sex,
      firstName,
      lastName,
      email: hasEmail ? uniqueEmail(local, domain) : null,
      yearOfBirth: isRelative
        ? Math.min(yearOfBirth, f.number.int({ min: 1935, max: 1955 }))
        : yearOfBirth,
      street,
      postalCode,
      city: city.name,
      telephone: phoneStyle === 'landline' ? landline : mobile,
      additionalTelephoneNumbers: phoneStyle === 'both' ? landline : null,
      insurer,
      insurerCode,
      relative: isRelative
        ? {
            firstName: relativeFirst,
            lastName: relativeLast,
            email: uniqueEmail(
              emailLocalPart(relativeFirst, relativeLast),
              f.helpers.arrayElement(domains),
            ),
            telephone: mobileNumber(f),
          }
        : null,
    };
  });
}
