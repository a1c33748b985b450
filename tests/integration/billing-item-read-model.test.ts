import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../server/http/contract';
import { storedItemBody } from '../../server/features/billing/item-read-model';
import type { Api } from '../support/api';
import { ADDRESS, itemMaker, makeRule } from './billing-support';
import { newClient, newCoach, startApi, type Caller } from './fixtures';

// The billing list sends item bodies PostgreSQL wrote (the read model), not objects the
// server maps, so the type checker never sees them: these checks are what holds that SQL to
// the contract's BillableItem. Bodies are taken in every status, with and without a rule,
// insurer and exemption, so each field is seen filled and each nullable one seen null.

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  $ref?: string;
};
type Body = Record<string, unknown>;

const contract = readContract();
const schemas = (contract.components as { schemas: Record<string, Schema> }).schemas;
const itemSchema = schemas.BillableItem!;
const refOf = (s: Schema) => schemas[s.$ref!.split('/').at(-1)!]!;
const nullable = (s: Schema) => Array.isArray(s.type) && s.type.includes('null');
const sorted = (keys: Iterable<string>) => [...keys].sort();

let api: Api;
let admin: Caller;
const bodies: Body[] = [];

beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({}, 'ADMIN'));
  const item = itemMaker(api, admin);
  const coach = await newCoach(api, admin);
  const insured = await newClient(api, admin, { ...ADDRESS, insurer: 'TK', lastName: 'Yılmaz' });
  const uninsured = await newClient(api, admin, ADDRESS);
  // Before any rule: no rule, no version, no exemption reason, and no insurer.
  const ids = [await item(uninsured.id, coach.id)];
  await makeRule(api, admin, {
    name: 'Befreit',
    amountCents: 4500,
    description: 'Konsultation',
    vatTreatment: 'exempt',
    vatExemptionReason: 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG',
  });
  for (const status of [
    'pending',
    'validation_failed',
    'approved',
    'invoice_sent',
    'cancelled',
  ] as const)
    ids.push(await item(insured.id, coach.id, status));
  for (const id of ids) {
    const body = await storedItemBody(api.database.db, id, undefined);
    expect(body, `item ${id} has a stored body`).toBeDefined();
    bodies.push(JSON.parse(body!) as Body);
  }
});
afterAll(() => api.close());

describe('the billing read model (stored item bodies)', () => {
  it("writes exactly the contract's BillableItem fields", () => {
    const fields = sorted(Object.keys(itemSchema.properties!));
    for (const body of bodies) expect(sorted(Object.keys(body))).toEqual(fields);
  });

  it('writes the nested people with exactly their schema fields', () => {
    for (const field of ['client', 'coach']) {
      const fields = sorted(Object.keys(refOf(itemSchema.properties![field]!).properties!));
      for (const body of bodies) expect(sorted(Object.keys(body[field] as Body))).toEqual(fields);
    }
  });

  it("conforms to the contract's schema (types, formats, enums, nulls)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // The contract's own `#/components/…` references resolve against this id.
    const id = 'https://contract.invalid/product.yaml';
    ajv.addSchema({ $id: id, components: contract.components });
    const validate = ajv.compile({ $ref: `${id}#/components/schemas/BillableItem` });
    for (const body of bodies) {
      validate(body);
      expect(validate.errors ?? [], JSON.stringify(body)).toEqual([]);
    }
  });

  it('fills every field in some body, and leaves each nullable one null in some body', () => {
    // A field written from the wrong (or a missing) column would pass as null every time.
    const props = itemSchema.properties!;
    const filled = Object.keys(props).filter((f) => bodies.some((b) => b[f] != null));
    expect(sorted(filled)).toEqual(sorted(Object.keys(props)));
    const nullables = Object.keys(props).filter((f) => nullable(props[f]!));
    const seenNull = nullables.filter((f) => bodies.some((b) => b[f] === null));
    expect(sorted(seenNull)).toEqual(sorted(nullables));
  });
});
