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

export const contractValidatorCompiler: FastifySchemaCompiler<Record<string, unknown>> = ({
  schema,
  httpPart,
}) => (httpPart === 'body' ? strict : coercing).compile(schema) as never;
