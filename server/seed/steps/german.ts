import type { Faker } from '@faker-js/faker';
import { MOBILE_PREFIXES } from '../data';

/** An e-mail local part from a German name: Jürgen Weiß → juergen.weiss */
export function emailLocalPart(...parts: string[]): string {
  return parts
    .join('.')
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9.-]+/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.|\.$/g, '');
}

/** Krankenversichertennummer: a letter, eight digits and the check digit (§ 290 SGB V). */
export function insuranceNumber(letter: string, eightDigits: string): string {
  const digits = String(letter.charCodeAt(0) - 64).padStart(2, '0') + eightDigits;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const p = Number(digits[i]) * (i % 2 === 0 ? 1 : 2);
    sum += p > 9 ? p - 9 : p;
  }
  return `${letter}${eightDigits}${sum % 10}`;
}

export function mobileNumber(f: Faker): string {
  const prefix = f.helpers.arrayElement(MOBILE_PREFIXES);
  const rest = f.string.numeric({
    length: f.number.int({ min: 7, max: 8 }),
    allowLeadingZeros: false,
  });
  return f.helpers.weightedArrayElement([
    { weight: 5, value: `0${prefix} ${rest}` },
    { weight: 2, value: `+49 ${prefix} ${rest}` },
    { weight: 2, value: `0${prefix}/${rest}` },
    { weight: 1, value: `0${prefix}-${rest.slice(0, 3)} ${rest.slice(3)}` },
  ]);
}

export function landlineNumber(f: Faker, areaCode: string): string {
  const rest = f.string.numeric({ length: 11 - areaCode.length, allowLeadingZeros: false });
  return f.helpers.weightedArrayElement([
    { weight: 5, value: `${areaCode} ${rest}` },
    { weight: 2, value: `(${areaCode}) ${rest}` },
    { weight: 2, value: `+49 ${areaCode.slice(1)} ${rest}` },
    { weight: 1, value: `${areaCode}/${rest}` },
  ]);
}
