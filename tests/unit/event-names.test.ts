// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { EVENT_TYPES, type EventType } from '../../shared/contract/enums';
import type { events } from '../../server/db/schema/index';
import type { EventInput } from '../../server/features/events/record';
import { createI18n } from '../../src/i18n';
import { eventActionLabel } from '../../src/views/events/actions';
import { readLocales } from '../support/locales';

/**
 * `/events` named some events by their code ("Sonstiges Ereignis
 * (insurer.updated)"). The list of what the server can record is the contract's EventType:
 * `recordEvent` and the events table accept nothing else (checked by the compiler, asserted
 * below), so every entry of that list needs a German name.
 */
let t: TFunction<'staff'>;
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  t = setup.i18n.getFixedT('de', 'staff') as TFunction<'staff'>;
});

const FEATURES = join(import.meta.dirname, '../../server/features');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });

describe('the German names of the event types', () => {
  it('the server records only the contract’s event types', () => {
    // Compile-time: what a feature may pass to recordEvent or insert into events.type.
    expectTypeOf<EventInput['type']>().toEqualTypeOf<EventType>();
    expectTypeOf<(typeof events.$inferInsert)['type']>().toEqualTypeOf<EventType>();
    // Run-time sanity: the literal types the features write are in the list.
    const written = new Set<string>();
    for (const file of sources(FEATURES)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!/\btype:|_EVENT\s*=|EVENTS\s*=|^\s+[a-zA-Z]+: '[a-z_]+\.[a-z_]+',$/.test(line))
          continue;
        for (const m of line.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) written.add(m[1]!);
      }
    }
    expect(written.size).toBeGreaterThan(30);
    // Webhook types that are sent but never recorded, and file names.
    const notEvents = (type: string) =>
      ['appointment.no_show', 'webhook.test'].includes(type) ||
      /\.(csv|json|zip|xml|pdf)$/.test(type);
    const listed = new Set<string>(EVENT_TYPES);
    expect([...written].filter((type) => !notEvents(type) && !listed.has(type))).toEqual([]);
  });

  it('has a German name for every event type, none shown as its code', () => {
    expect(EVENT_TYPES.length).toBeGreaterThan(50);
    const unnamed = EVENT_TYPES.filter((type) => {
      const label = eventActionLabel(t, type);
      return (
        label.startsWith('Sonstiges Ereignis') || label.includes(type) || !/^[A-ZÄÖÜ]/.test(label)
      );
    });
    expect(unnamed).toEqual([]);
    expect(eventActionLabel(t, 'insurer.updated')).toBe('Krankenkasse geändert');
    expect(eventActionLabel(t, 'campaign.created')).toBe('Kampagne angelegt');
  });
});
