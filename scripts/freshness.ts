// Whether a build is older than its sources, by modification times (no hashing: the answer is
// needed at every `npm start` and before every end-to-end run).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(entry: string, skip: readonly string[]): number {
  if (!existsSync(entry) || skip.includes(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) {
    newest = Math.max(newest, newestMtime(path.join(entry, name), skip));
  }
  return newest;
}

/** Whether `output` is missing or older than any of `inputs` (files or directories). */
export function isStale(output: string, inputs: readonly string[], skip: readonly string[] = []) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((input) => newestMtime(input, skip) > built);
}
