import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { parse } from 'yaml';
import { projectRoot } from '../paths';

export const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
export type Method = (typeof METHODS)[number];
type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OperationObject {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security?: Array<Record<string, string[]>>;
  'x-roles'?: string[];
  'x-allow-inactive'?: boolean;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject | Parameter[]>>;
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

/** How an operation is reached: public, a bearer token with roles, or a shared webhook secret. */
export type Access =
  | { kind: 'public' }
  | { kind: 'bearer'; roles: string[]; allowInactive: boolean }
  | { kind: 'webhookSecret'; scheme: string };

export interface Operation {
  operationId: string;
  method: Method;
  /** Path as written in the contract, e.g. /appointment/{id}. */
  path: string;
  access: Access;
  schema: {
    params?: JsonSchema;
    querystring?: JsonSchema;
    headers?: JsonSchema;
    body?: JsonSchema;
    response?: Record<string, unknown>;
  };
  /** The dereferenced operation, for the contract test. */
  definition: OperationObject;
}

export const productContractPath = path.join(projectRoot, 'openapi/product.yaml');

export function readContract(file = productContractPath): OpenApiDocument {
  return parse(readFileSync(file, 'utf8')) as OpenApiDocument;
}

function objectOf(params: Parameter[], allowOthers: boolean): JsonSchema | undefined {
  if (params.length === 0 && allowOthers) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema ?? { type: 'string' }])),
    required: params.filter((p) => p.required).map((p) => p.name),
    additionalProperties: allowOthers,
  };
}

function accessOf(op: OperationObject, doc: OpenApiDocument): Access {
  const security = op.security ?? doc.security ?? [];
  if (security.length === 0) return { kind: 'public' };
  const scheme = Object.keys(security[0] ?? {})[0] ?? 'bearerAuth';
  if (scheme !== 'bearerAuth') return { kind: 'webhookSecret', scheme };
  const roles = op['x-roles'];
  if (!roles || roles.length === 0) {
    throw new Error(`${op.operationId}: a protected operation needs x-roles`);
  }
  return { kind: 'bearer', roles, allowInactive: op['x-allow-inactive'] === true };
}

function responsesOf(op: OperationObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const content = Object.entries(response.content ?? {}).filter(
      ([type, media]) => media.schema && type.includes('json'),
    );
    if (content.length === 0) continue;
    out[status.toLowerCase()] = {
      content: Object.fromEntries(content.map(([type, media]) => [type, { schema: media.schema }])),
    };
  }
  return out;
}

const withoutEmpty = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Reads the contract and lists every operation with the Fastify schemas taken from it. */
export async function loadOperations(doc: OpenApiDocument = readContract()): Promise<Operation[]> {
  const resolved = (await dereference(structuredClone(doc))) as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [p, item] of Object.entries(resolved.paths)) {
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const params = [...shared, ...(op.parameters ?? [])];
      const body = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        operationId: op.operationId,
        method,
        path: p,
        access: accessOf(op, resolved),
        schema: withoutEmpty({
          params: objectOf(
            params.filter((x) => x.in === 'path'),
            true,
          ),
          querystring: objectOf(
            params.filter((x) => x.in === 'query'),
            false,
          ),
          headers: objectOf(
            params
              .filter((x) => x.in === 'header')
              .map((x) => ({ ...x, name: x.name.toLowerCase() })),
            true,
          ),
          body,
          response: responsesOf(op),
        }),
        definition: op,
      });
    }
  }
  return operations;
}

/** `/appointment/{id}` → `/appointment/:id` */
export const toFastifyPath = (p: string) => p.replace(/\{([^}]+)\}/g, ':$1');
