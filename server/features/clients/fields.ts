import { badRequest } from '../../http/problem';
import {
  clientFieldErrors,
  type ClientFieldError,
  type ClientFieldValues,
} from '../../../shared/client-fields.rules';

const MESSAGES: Record<ClientFieldError, string> = {
  value_missing: 'The field is blank',
  invalid_email: 'Not an e-mail address',
  invalid_year: `Year of birth is not plausible (at most 110 years ago, not in the future)`,
  invalid_postal_code: 'Not a postal code of the country',
  invalid_phone: 'Not a telephone number (or a comma-separated list of them)',
  invalid_insurer_code: 'Letters and digits, 5 to 20',
  implausible_date: 'A date from 1900 up to today',
};

/**
 * The client field rules of sign-up, staff create and staff edit, the same as the forms in
 * the browser use (shared/client-fields.rules.ts): 400 naming the first field that
 * breaks one. `values` is the record as it will be stored, so a changed country re-checks
 * the stored postal code.
 */
export function assertClientFields(values: ClientFieldValues, now: Date) {
  const [first] = clientFieldErrors(values, now);
  if (first) throw badRequest(first.field, first.code, MESSAGES[first.code]);
}
