// `npm run auth:rotate-key`: a new session signing key pair now (e.g. after a suspected
// leak, or with AUTH_KEY_ROTATION_DAYS=0). Running instances publish it within
// AUTH_KEY_REFRESH_SECONDS (30 s) and sign with it from twice that later; the old public key
// stays in the JWKS until its tokens expire.
import { loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { loadAuthConfig } from './config';
import { rotateSigningKey } from './keys';

const config = loadConfig();
const auth = loadAuthConfig();
const publishDelayMs = 2 * auth.AUTH_KEY_REFRESH_SECONDS * 1000;
const database = await connectDatabase(config);
try {
  await database.migrate();
  const kid = await rotateSigningKey(database.db, {
    tokenLifetimeSeconds: auth.AUTH_SESSION_LIFETIME_SECONDS,
    publishDelayMs,
  });
  console.log(
    `New signing key ${kid}: published now, signs from ${new Date(Date.now() + publishDelayMs).toISOString()}`,
  );
} finally {
  await database.close();
}
