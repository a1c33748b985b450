import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { loadOperations, type Operation } from '../../server/http/contract';
import type { SeenResponse } from '../../server/testing/test-app';

/** JSON Schema 2020-12 (OpenAPI 3.1) with formats, shared by the contract checks of tests. */
export const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

let operations: Promise<Operation[]> | undefined;
export const contractOperations = () => (operations ??= loadOperations());

/** The contract's schema for one answer, or the reason there is none. */
function schemaFor(seen: SeenResponse): { schema?: object; error?: string } {
  const responses = seen.operation?.definition.responses ?? {};
  const declared =
    responses[String(seen.status)] ?? responses[`${String(seen.status)[0]}XX`] ?? responses.default;
  if (!declared) return { error: `status ${seen.status} is not declared` };
  const content = declared.content ?? {};
  const mediaTypes = Object.keys(content);
  if (mediaTypes.length === 0) {
    return seen.payload === '' ? {} : { error: `status ${seen.status} declares no body` };
  }
  const type = mediaTypes.find((t) => seen.contentType.startsWith(t));
  if (!type) return { error: `content type ${seen.contentType} not in ${mediaTypes.join(', ')}` };
  return { schema: content[type]?.schema };
}

/** Checks one answer against the contract; returns the problems found (none when it conforms). */
export function checkAgainstContract(seen: SeenResponse): string[] {
  if (!seen.operation) return [];
  const where = `${seen.operation.operationId} → ${seen.status}`;
  const { schema, error } = schemaFor(seen);
  if (error) return [`${where}: ${error}`];
  if (!schema || !seen.contentType.includes('json') || seen.payload === null) return [];
  let body: unknown;
  try {
    body = JSON.parse(seen.payload);
  } catch {
    return [`${where}: the body is not JSON (${seen.payload.length} characters)`];
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '/'} ${e.message}`);
}
