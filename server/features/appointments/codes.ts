import { randomBytes, randomInt } from 'node:crypto';

// Lower-case Crockford alphabet: no i, l, o, u, so a code read aloud is typed right.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A meeting code: 12 symbols of 5 bits = 60 bits, typed as xxxx-xxxx-xxxx. */
export function newMeetingCode(): string {
  const symbols = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [0, 4, 8].map((i) => symbols.slice(i, i + 4).join('')).join('-');
}

/** The video room's name is separate from both codes and never shown. */
export const newVideoRoom = () => `sprechstunde-${randomBytes(16).toString('base64url')}`;
