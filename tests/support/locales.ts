import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource, ResourceLanguage } from 'i18next';

export const LOCALES_DIR = join(import.meta.dirname, '../../src/i18n/locales');

/** One language's namespaces, read from `src/i18n/locales/<lng>/*.json`. */
export function readLocale(lng: string): ResourceLanguage {
  const dir = join(LOCALES_DIR, lng);
  const resources: ResourceLanguage = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    resources[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  }
  return resources;
}

/** The real locale files, for `createI18n({ resources })`. */
export function readLocales(...lngs: string[]): Resource {
  return Object.fromEntries(lngs.map((lng) => [lng, readLocale(lng)]));
}
