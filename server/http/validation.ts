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

/** Where (a JSON pointer) in a request part a string or a key holds unstorable text. */
function findUnstorable(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = pointer(path, key);
    if (UNSTORABLE.test(key)) return at;
    const found = findUnstorable(child, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Every request part of every contract operation (body, query, path, headers) is checked
 * here, before the contract's schema: text PostgreSQL cannot store is a 400 naming the field,
 * in one place instead of in each handler (or, as before, a 500 from the database).
 */
export const contractValidatorCompiler: FastifySchemaCompiler<Record<string, unknown>> = ({
  schema,
  httpPart,
}) => {
  const validateSchema = (httpPart === 'body' ? strict : coercing).compile(schema);
  const validate = Object.assign(
    (data: unknown, context?: object) => {
      const at = findUnstorable(data);
      if (at !== undefined) {
        const error: ValidationError = {
          instancePath: at,
          keyword: UNSTORABLE_TEXT,
          message: 'contains a character that cannot be stored (NUL or a lone surrogate)',
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
