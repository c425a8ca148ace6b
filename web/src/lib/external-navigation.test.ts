import { describe, expect, it } from 'vitest';
import { ExternalNavigationError, isExternalUrl, navigateTo } from './external-navigation.ts';

const ORIGIN = 'https://portal.example.com';

function fakeLocation() {
  const visited: string[] = [];
  return { visited, location: { origin: ORIGIN, assign: (url: string | URL) => void visited.push(String(url)) } };
}

describe('external navigation', () => {
  it('tells same-origin paths from other origins', () => {
    expect(isExternalUrl('/dashboard', ORIGIN)).toBe(false);
    expect(isExternalUrl('https://portal.example.com/x', ORIGIN)).toBe(false);
    expect(isExternalUrl('https://idp.example.com/login', ORIGIN)).toBe(true);
    expect(isExternalUrl('//evil.example.com/x', ORIGIN)).toBe(true);
    expect(isExternalUrl('javascript:alert(1)', ORIGIN)).toBe(true);
  });

  it('refuses an external URL without opt-in, and allows it with one', () => {
    const { visited, location } = fakeLocation();
    expect(() => navigateTo('https://idp.example.com/login', { location })).toThrow(ExternalNavigationError);
    navigateTo('https://idp.example.com/login', { location, allowExternal: true });
    navigateTo('/dashboard', { location });
    expect(visited).toEqual(['https://idp.example.com/login', '/dashboard']);
  });

  it('never follows script or data URLs, even with opt-in', () => {
    const { visited, location } = fakeLocation();
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', 'JaVaScRiPt:alert(1)']) {
      expect(() => navigateTo(url, { location, allowExternal: true })).toThrow(ExternalNavigationError);
    }
    expect(visited).toEqual([]);
  });
});
