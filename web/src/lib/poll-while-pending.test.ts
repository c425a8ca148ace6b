import { describe, expect, it } from 'vitest';
import { PENDING_POLL_MS, pollWhilePending } from './api-hooks.ts';

describe('pollWhilePending', () => {
  const interval = pollWhilePending((command: { state: string }) => command.state === 'Sent');
  const query = (...pages: string[][]) => ({ state: { data: { pages: pages.map((states) => ({ data: states.map((state) => ({ state })) })) } } });

  it('polls while some loaded row, on any page, is pending', () => {
    expect(interval(query(['Completed'], ['Failed', 'Sent']))).toBe(PENDING_POLL_MS);
  });

  it('stops once no row is pending, and before anything has loaded', () => {
    expect(interval(query(['Completed', 'Failed']))).toBe(false);
    expect(interval({ state: {} })).toBe(false);
  });
});
