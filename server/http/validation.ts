import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function createAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv2020({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

// URLs carry only text, so query, path and headers are coerced ("5" → 5, "true" → true);
// a JSON body must already have the right types, so `{"yearOfBirth": "1980"}` is a 400.
const coercing = createAjv('array');
const strict = createAjv(false);

/** The keyword of the error for text PostgreSQL cannot store (problem.ts names its code). */
export const UNSTORABLE_TEXT = 'unstorableText';

// NUL, and a UTF-16 surrogate without its partner: JSON and URLs can carry both, but a
// PostgreSQL text value cannot (22021 / 22P05), and no person types them.
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface ValidationError {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

const pointer = (path: string, key: string) =>
  `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The keyword of the error for JSON nested deeper than MAX_JSON_DEPTH (problem.ts names its code). */
export const TOO_DEEP = 'tooDeep';
/**
 * How many objects and arrays a request part may nest, the outermost counted. The deepest
 * the contract describes (a clinical document's content) stays well within it; deeper input
 * is nobody's form, and walking it (here, in the schema check, in the database) overflowed
 * the stack: a 500 instead of a 400.
 */
export const MAX_JSON_DEPTH = 32;

interface Found {
  /** A JSON pointer. */
  at: string;
  keyword: typeof UNSTORABLE_TEXT | typeof TOO_DEEP;
}

/**
 * Where (a JSON pointer) in a request part a string or a key holds unstorable text, or the
 * top-level field under which the part nests deeper than MAX_JSON_DEPTH (`depth`: the
 * objects and arrays around `value`).
 */
function findUnstorable(value: unknown, path = '', depth = 0): Found | undefined {
  if (typeof value === 'string')
    return UNSTORABLE.test(value) ? { at: path, keyword: UNSTORABLE_TEXT } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_JSON_DEPTH) {
    // Named by its top-level field: the full pointer would be dozens of segments long.
    return { at: path.split('/').slice(0, 2).join('/'), keyword: TOO_DEEP };
  }
  for (const [key, child] of Object.entries(value)) {
    const at = pointer(path, key);
    if (UNSTORABLE.test(key)) return { at, keyword: UNSTORABLE_TEXT };
    const found = findUnstorable(child, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const MESSAGES: Record<Found['keyword'], string> = {
  [UNSTORABLE_TEXT]: 'contains a character that cannot be stored (NUL or a lone surrogate)',
  [TOO_DEEP]: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`,
};

/**
 * Every request part of every contract operation (body, query, path, headers) is checked
 * here, before the contract's schema: text PostgreSQL cannot store, and nesting deeper than
 * MAX_JSON_DEPTH, are a 400 naming the field,
 * in one place instead of in each handler (or, as before, a 500 from the database).
 */
export const contractValidatorCompiler: FastifySchemaCompiler<Record<string, unknown>> = ({
  schema,
  httpPart,
}) => {
  const validateSchema = (httpPart === 'body' ? strict : coercing).compile(schema);
  const validate = Object.assign(
    (data: unknown, context?: object) => {
      const found = findUnstorable(data);
      if (found !== undefined) {
        const error: ValidationError = {
          // A part that is itself a deep array has no field to name: the part, then.
          instancePath: found.keyword === TOO_DEEP && Array.isArray(data) ? '' : found.at,
          keyword: found.keyword,
          message: MESSAGES[found.keyword],
          params: {},
        };
        validate.errors = [error];
        return false;
      }
      const valid = validateSchema(data, context as never);
      validate.errors = validateSchema.errors;
      return valid;
    },
    // Fastify hands Ajv's own validators their parent, so a root value can be coerced.
    { schemaEnv: validateSchema.schemaEnv, errors: null as unknown },
  );
  return validate as never;
};
