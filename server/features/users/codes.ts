import { createHash, randomInt } from 'node:crypto';

// Crockford-style alphabet: no I, L, O, U, so codes survive being read aloud or typed.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** An activation code shown once to the admin: 12 symbols (60 bits), as XXXX-XXXX-XXXX. */
export function newActivationCode(): string {
  const symbols = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [0, 4, 8].map((i) => symbols.slice(i, i + 4).join('')).join('-');
}

/** Codes are stored hashed; typing is forgiving about case, spaces and dashes. */
export function hashActivationCode(code: string): string {
  const normalized = code.toUpperCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(normalized).digest('hex');
}
