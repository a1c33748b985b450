import { defineConfig } from 'drizzle-kit';

// Only generates SQL from the schema; the app applies migrations itself at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});
