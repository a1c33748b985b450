// Fails when the generated contract types differ from what the contract produces now.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GENERATED, generate } from './gen-api.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gen-api-'));
const stale: string[] = [];
for (const [contract, generated] of GENERATED) {
  if (!existsSync(contract)) continue;
  const fresh = path.join(dir, path.basename(generated));
  generate(contract, fresh);
  if (!existsSync(generated) || readFileSync(fresh, 'utf8') !== readFileSync(generated, 'utf8')) {
    stale.push(generated);
  }
}
if (stale.length > 0) {
  console.error(`Stale generated API types: ${stale.join(', ')}. Run: npm run gen:api`);
  process.exit(1);
}
console.log('Generated API types match the contract.');
