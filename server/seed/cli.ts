/**
 * npm run seed            seeds the German demo data into an empty database
 * npm run seed -- --force empties every table first, then seeds
 *
 * Uses the same configuration as the server: DATABASE_URL, or the embedded database in
 * PGLITE_DIR. Stop a server that uses the embedded database first: its files are not shared.
 */
import { loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { seed, seedIfEmpty } from './seed';
import { formatSeedSummary } from './summary';

const force = process.argv.includes('--force');
const config = loadConfig();
const database = await connectDatabase(config);
const where =
  database.kind === 'pglite'
    ? `eingebettete Datenbank (${config.PGLITE_DIR})`
    : 'PostgreSQL-Datenbank (DATABASE_URL)';

try {
  await database.migrate();
  const options = { holidayState: config.HOLIDAY_STATE };
  const summary = force
    ? await seed(database.db, { ...options, reset: true })
    : await seedIfEmpty(database.db, options);
  if (!summary) {
    console.log(
      `Die ${where} enthält schon Benutzer:innen – nichts geändert.\n` +
        'Mit "npm run seed -- --force" werden alle Tabellen geleert und die Demodaten neu angelegt.',
    );
  } else {
    console.log(`Ziel: ${where}${force ? ', vorher geleert' : ''}\n`);
    console.log(formatSeedSummary(summary, config.PUBLIC_URL));
  }
} catch (err) {
  console.error('Das Anlegen der Demodaten ist fehlgeschlagen; nichts wurde geändert.');
  console.error(err);
  process.exitCode = 1;
} finally {
  await database.close();
}
