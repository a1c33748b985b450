import type { ListsAll } from '../../shared/contract/enums';
import type { components } from '../../shared/contract/product';

/**
 * The client sign-up form's values, choices and request, without the rules: the
 * page and the machine need these for the first screen, the rules (./client-signup.validation.ts,
 * zod/mini) load when the form is sent (bench/web.ts).
 */

type ClientType = components['schemas']['ClientType'];

/** Who the form is for: the contract's client types (checked below), in the form's order. */
export const BOOKING_FOR = ['self', 'relative'] as const satisfies readonly ClientType[];
const _allClientTypes: ListsAll<ClientType, typeof BOOKING_FOR> = true;
export type BookingFor = (typeof BOOKING_FOR)[number];

/** Countries offered in the form (ISO 3166-1 alpha-2); postal codes are checked per country. */
export const COUNTRIES = ['DE', 'AT', 'CH', 'LU', 'BE', 'NL', 'FR', 'PL', 'DK', 'IT'] as const;

export const HEARD_FROM = [
  'search',
  'doctor',
  'insurer',
  'friends',
  'socialMedia',
  'press',
  'other',
] as const;

/** The insurer choice for "not in the list": the form then asks for the name. */
export const OTHER_INSURER = 'other';

/**
 * The insurer the request names: the catalogue's entry picked, or the name typed (after
 * "andere", or when no catalogue could be loaded).
 */
export const insurerOf = (form: Pick<SignupFormValues, 'insurer' | 'insurerChoice'>) =>
  form.insurerChoice && form.insurerChoice !== OTHER_INSURER ? form.insurerChoice : form.insurer;

/** The form as it starts: SMS notifications on (the specification's entities), Germany. */
export const emptySignupForm = (): SignupFormValues => ({
  bookingFor: 'self',
  firstName: '',
  lastName: '',
  email: '',
  telephone: '',
  additionalTelephoneNumbers: '',
  relativeFirstName: '',
  relativeLastName: '',
  yearOfBirth: '',
  street: '',
  postalCode: '',
  city: '',
  country: 'DE',
  insurerChoice: '',
  insurer: '',
  insurerCode: '',
  howDidYouHearAboutUs: '',
  wantsToProvideRecordingsForResearch: false,
  notifyViaSms: false,
  privacyConsent: false,
});

/** What the fields hold before validation. */
export interface SignupFormValues {
  bookingFor: BookingFor;
  firstName: string;
  lastName: string;
  email: string;
  telephone: string;
  additionalTelephoneNumbers: string;
  relativeFirstName: string;
  relativeLastName: string;
  yearOfBirth: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  /** '' (none), a catalogue insurer's name, or OTHER_INSURER (then `insurer` holds the name). */
  insurerChoice: string;
  insurer: string;
  insurerCode: string;
  howDidYouHearAboutUs: string;
  wantsToProvideRecordingsForResearch: boolean;
  notifyViaSms: boolean;
  privacyConsent: boolean;
}

export type FieldErrors = Partial<Record<keyof SignupFormValues, string>>;

/** The campaign from the link's query (`?campaign=…`): 1–64 letters, digits, `-`, `_`, `.`. */
export function campaignFrom(search: string): string | null {
  const value = new URLSearchParams(search).get('campaign')?.trim() ?? '';
  return /^[A-Za-z0-9._-]{1,64}$/.test(value) ? value : null;
}

export interface SignupRequestBody {
  firstName: string;
  lastName: string;
  email: string;
  yearOfBirth: number;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  telephone: string;
  additionalTelephoneNumbers?: string;
  insurer?: string;
  insurerCode?: string;
  clientType: BookingFor;
  contactPerson?: { firstName: string; lastName: string; email: string; telephone: string };
  howDidYouHearAboutUs?: string;
  wantsToProvideRecordingsForResearch: boolean;
  notifyViaSms: boolean;
  campaign?: string;
  privacyConsent: true;
}
