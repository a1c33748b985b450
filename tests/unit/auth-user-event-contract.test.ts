import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

// The product hears the provider only through the provider's published surface: the event
// the provider posts (openapi/auth.yaml, webhook userEvent) is the body the product accepts
// (openapi/product.yaml, receiveAuthUserEvent). The two contracts must not drift apart.

const schemas = (file: string) => parse(readFileSync(file, 'utf8')).components.schemas;

/** The shape without prose: descriptions may differ between the two documents. */
function shape(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'description')
      .map(([key, value]) => [key, shape(value)]),
  );
}

describe('the auth provider user event', () => {
  it('is published by the provider with the body the product receives', () => {
    const auth = parse(readFileSync('openapi/auth.yaml', 'utf8'));
    const posted = auth.webhooks.userEvent.post.requestBody.content['application/json'].schema;
    expect(posted).toEqual({ $ref: '#/components/schemas/AuthUserEvent' });
    expect(shape(schemas('openapi/auth.yaml').AuthUserEvent)).toEqual(
      shape(schemas('openapi/product.yaml').AuthUserEvent),
    );
  });
});
