// `npm run auth:patch-metadata -- <user-id> '<JSON merge patch>'`: the operator writes a
// user's metadata, as Hanko's admin API does: a merge patch (RFC 7396) of
// {"public_metadata": …, "private_metadata": …, "unsafe_metadata": …}; `null` clears all.
// Users patch only their unsafe_metadata themselves (profile flow, patch_metadata).
import { loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { METADATA_MAX_CHARS, patchMetadata } from './metadata';
import { inTransaction } from '../db/transaction';

const [userId, text] = process.argv.slice(2);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let patch: unknown;
try {
  patch = JSON.parse(text ?? '');
} catch {
  patch = undefined;
}
if (
  !userId ||
  !UUID.test(userId) ||
  patch === undefined ||
  (patch !== null && (typeof patch !== 'object' || Array.isArray(patch)))
) {
  console.error("usage: npm run auth:patch-metadata -- <user-id> '<JSON object or null>'");
  process.exit(2);
}

const database = await connectDatabase(loadConfig());
try {
  await database.migrate();
  const result = await inTransaction(database.db, (tx) =>
    patchMetadata(tx, userId, patch as Record<string, unknown> | null, new Date()),
  );
  if (!result) {
    console.error(`No user ${userId}`);
    process.exitCode = 1;
  } else if (result.tooLarge.length > 0) {
    console.error(
      `Not stored: ${result.tooLarge.join(', ')} would exceed ${METADATA_MAX_CHARS} characters`,
    );
    process.exitCode = 1;
  } else console.log(JSON.stringify(result.metadata, null, 2));
} finally {
  await database.close();
}
