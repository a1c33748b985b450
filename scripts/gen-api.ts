// `npm run gen:api`: the contract's types, and its enums as value lists (--enum-values), into
// shared/contract/, which the browser and the server both import
// (docs/decisions/0004-layers-and-feature-faces.md).
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const GENERATED = [
  ['openapi/product.yaml', 'shared/contract/product.ts'],
  ['openapi/auth.yaml', 'shared/contract/auth.ts'],
] as const;

export function generate(contract: string, out: string): void {
  execFileSync('openapi-typescript', [contract, '--enum-values', '-o', out], { stdio: 'ignore' });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [contract, out] of GENERATED) generate(contract, out);
  console.log(`Wrote ${GENERATED.map(([, out]) => out).join(', ')}.`);
}
