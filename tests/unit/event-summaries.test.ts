import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../shared/contract/enums';
import { summaryOf } from '../../server/features/events/summaries';

/**
 * The activity feed's `summary`: German for every event type the server records (the
 * contract's EventType, the only types `recordEvent` accepts; tests/unit/event-names.test.ts).
 */
describe('activity feed summaries', () => {
  it('has a German summary for every event type the server records', () => {
    expect(EVENT_TYPES.length).toBeGreaterThan(50);
    expect(EVENT_TYPES.filter((type) => summaryOf(type) === type)).toEqual([]);
  });
});
