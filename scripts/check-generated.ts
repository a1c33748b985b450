// Fails when the generated API types differ from what the contract produces now.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const pairs = [
  ['openapi/product.yaml', 'src/api/generated/product.ts'],
  ['openapi/auth.yaml', 'src/api/generated/auth.ts'],
] as const;

const dir = mkdtempSync(path.join(tmpdir(), 'gen-api-'));
const stale: string[] = [];
for (const [contract, generated] of pairs) {
  if (!existsSync(contract)) continue;
  const fresh = path.join(dir, path.basename(generated));
  execFileSync('openapi-typescript', [contract, '-o', fresh], { stdio: 'ignore' });
  if (!existsSync(generated) || readFileSync(fresh, 'utf8') !== readFileSync(generated, 'utf8')) {
    stale.push(generated);
  }
}
if (stale.length > 0) {
  console.error(`Stale generated API types: ${stale.join(', ')}. Run: npm run gen:api`);
  process.exit(1);
}
console.log('Generated API types match the contract.');
