import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR, readLocale } from '../support/locales';

/**
 * Architecture rule 4: every key the app uses exists in German, and English has the same keys.
 * Keys are found in src/ as `t('key')`, `t('ns:key')`, `tKey('…')` and `i18nKey="…"`. A key
 * without a namespace belongs to the namespace(s) the file names in `useTranslation('ns')` or
 * `useTranslation(['ns', …])`, else to `translation`. Keys built at run time cannot be checked:
 * write them with tKey where they are defined.
 */

const SRC = join(import.meta.dirname, '../../src');
const DEFAULT_NS = 'translation';
const PLURAL_SUFFIXES = ['zero', 'one', 'two', 'few', 'many', 'other'];

type Flat = Map<string, string>;

function flatten(value: unknown, prefix = '', out: Flat = new Map()): Flat {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, String(value));
  }
  return out;
}

function flatLocale(lng: string): Map<string, Flat> {
  return new Map(Object.entries(readLocale(lng)).map(([ns, tree]) => [ns, flatten(tree)]));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

interface UsedKey {
  file: string;
  key: string;
  namespaces: string[];
}

const KEY_CALL = /(?<![\w$.])(?:i18n\.)?(?:t|tKey)\(\s*(['"`])((?:(?!\1)[^\\$])+)\1/g;
const KEY_PROP = /\bi18nKey\s*[=:]\s*\{?\s*(['"`])((?:(?!\1)[^\\$])+)\1/g;
const USE_TRANSLATION = /\buseTranslation\(\s*(\[[^\]]*\]|(['"`])[^'"`]+\2)?/g;

function usedKeys(): UsedKey[] {
  const used: UsedKey[] = [];
  for (const file of sourceFiles(SRC)) {
    // Drop comments (block comments and whole-line // comments): examples there are no uses.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const declared = [...text.matchAll(USE_TRANSLATION)].flatMap((m) =>
      m[1] ? [...m[1].matchAll(/['"`]([^'"`]+)['"`]/g)].map((n) => n[1]!) : [DEFAULT_NS],
    );
    const fileNamespaces = declared.length > 0 ? [...new Set(declared)] : [DEFAULT_NS];
    for (const m of [...text.matchAll(KEY_CALL), ...text.matchAll(KEY_PROP)]) {
      const raw = m[2]!;
      const colon = raw.indexOf(':');
      const [namespaces, key] =
        colon > 0 && !raw.includes(' ')
          ? [[raw.slice(0, colon)], raw.slice(colon + 1)]
          : [fileNamespaces, raw];
      used.push({ file: relative(SRC, file), key, namespaces });
    }
  }
  return used;
}

function hasKey(flat: Flat | undefined, key: string): boolean {
  if (!flat) return false;
  return flat.has(key) || PLURAL_SUFFIXES.some((s) => flat.has(`${key}_${s}`));
}

const de = flatLocale('de');
const en = flatLocale('en');

describe('translations', () => {
  it('finds the keys used in src/ (the scanner works)', () => {
    const keys = usedKeys().map((u) => `${u.namespaces.join('|')}:${u.key}`);
    expect(keys).toContain('translation:home.title');
    expect(keys).toContain('common:networkBanner.retry');
    expect(keys).toContain('translation:breadcrumbs.home');
  });

  it('has every key used in src/ in German', () => {
    const missing = usedKeys()
      .filter((u) => !u.namespaces.some((ns) => hasKey(de.get(ns), u.key)))
      .map((u) => `${u.file}: ${u.namespaces.join(' or ')}:${u.key}`);
    expect(missing, `keys missing in ${relative(process.cwd(), LOCALES_DIR)}/de`).toEqual([]);
  });

  it('has the same namespaces and keys in English as in German', () => {
    expect([...en.keys()].sort()).toEqual([...de.keys()].sort());
    for (const [ns, deKeys] of de) {
      expect([...(en.get(ns)?.keys() ?? [])].sort(), `keys of en/${ns}.json`).toEqual(
        [...deKeys.keys()].sort(),
      );
    }
  });

  it('uses the same interpolation variables in both languages, and no empty German text', () => {
    const variables = (text: string) =>
      [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();
    for (const [ns, deKeys] of de) {
      for (const [key, text] of deKeys) {
        expect(text.trim(), `de/${ns}.json ${key}`).not.toBe('');
        expect(variables(en.get(ns)?.get(key) ?? ''), `variables of ${ns}:${key}`).toEqual(
          variables(text),
        );
      }
    }
  });
});
