/**
 * Marks a string as a translation key where it is stored rather than passed to `t()` directly
 * (route tables, error-code maps). It returns the key unchanged; the locales test finds keys
 * written as `tKey('ns:key')` or `tKey('key')` (namespace `translation`) and checks they exist.
 */
export const tKey = <K extends string>(key: K): K => key;
