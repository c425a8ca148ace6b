import { afterEach, describe, expect, it, vi } from 'vitest';
import { isNewVersionDeployed, pollForNewVersion, VERSION_POLL_MS } from './version-poll.ts';

const answering = (body: unknown, status = 200) => (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

describe('version poll', () => {
  afterEach(() => vi.useRealTimers());

  it('sees a different deployed version, and nothing else', async () => {
    expect(await isNewVersionDeployed('a1', answering({ version: 'b2' }))).toBe(true);
    expect(await isNewVersionDeployed('a1', answering({ version: 'a1' }))).toBe(false);
    expect(await isNewVersionDeployed('a1', answering({ version: 'b2' }, 404))).toBe(false);
    expect(await isNewVersionDeployed('a1', answering('<html>'))).toBe(false);
    const offline = (async () => {
      throw new TypeError('network down');
    }) as unknown as typeof fetch;
    expect(await isNewVersionDeployed('a1', offline)).toBe(false);
  });

  it('polls every hour and reports a new version once', async () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const fetcher = (async () => {
      calls.push(Date.now());
      return new Response(JSON.stringify({ version: calls.length >= 2 ? 'new' : 'old' }));
    }) as unknown as typeof fetch;
    let reported = 0;
    pollForNewVersion('old', () => (reported += 1), fetcher);
    await vi.advanceTimersByTimeAsync(VERSION_POLL_MS - 1);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(reported).toBe(0);
    await vi.advanceTimersByTimeAsync(VERSION_POLL_MS * 3);
    expect(calls).toHaveLength(2);
    expect(reported).toBe(1);
  });
});
