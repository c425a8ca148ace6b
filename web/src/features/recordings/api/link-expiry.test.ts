import { describe, expect, it } from 'vitest';
import { earliestExpiry, linkExpiresAt } from './link-expiry.ts';

const link = (date: string, expires: string) =>
  `http://localhost:4569/processed/C%23demo/x?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=${date}&X-Amz-Expires=${expires}&X-Amz-Signature=abc`;

describe('linkExpiresAt', () => {
  it('reads the signing time and lifetime a SigV4 link carries', () => {
    expect(linkExpiresAt(link('20261124T101500Z', '300'))).toBe(Date.parse('2026-11-24T10:20:00Z'));
  });

  it('answers undefined for a link that does not say', () => {
    expect(linkExpiresAt('https://example.test/file.png')).toBeUndefined();
    expect(linkExpiresAt(link('yesterday', '300'))).toBeUndefined();
    expect(linkExpiresAt(link('20261124T101500Z', '-5'))).toBeUndefined();
    expect(linkExpiresAt('not a url')).toBeUndefined();
  });
});

describe('earliestExpiry', () => {
  it('takes the first link to expire, else the fallback', () => {
    const early = link('20261124T101500Z', '60');
    const late = link('20261124T101500Z', '300');
    expect(earliestExpiry([late, early], 0)).toBe(Date.parse('2026-11-24T10:16:00Z'));
    expect(earliestExpiry(['https://example.test/a'], 42)).toBe(42);
  });
});
