/**
 * npm run db:migrate (in the image: node dist/server/migrate.js) applies the committed
 * migrations to DATABASE_URL, or the embedded database, and exits: a deploy migrates once,
 * before its instances roll, instead of leaving it to whichever new instance starts first.
 * Never seeds.
 */
import { loadConfig } from '../config';
import { connectDatabase, migrationsFolder } from './client';

const config = loadConfig();
const database = await connectDatabase(config);
const started = performance.now();
try {
  await database.migrate();
  console.log(
    `migrations applied (${migrationsFolder}) in ${Math.round(performance.now() - started)} ms`,
  );
} catch (err) {
  console.error(
    'migration failed: its transaction is rolled back, the database keeps the schema it had',
  );
  console.error(err);
  process.exitCode = 1;
} finally {
  await database.close();
}
