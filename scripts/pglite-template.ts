// Part of `prepare` (npm ci): the migrated embedded database that `npm start` copies into an
// empty .data (server/db/pglite-template.ts).
import { connectPglite } from '../server/db/client';
import { buildPgliteTemplate, PGLITE_TEMPLATE_DIR } from '../server/db/pglite-template';

const started = performance.now();
await buildPgliteTemplate((dir) => connectPglite(dir));
console.log(
  `pglite template: ${PGLITE_TEMPLATE_DIR} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
