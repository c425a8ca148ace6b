import { describe, expect, it } from 'vitest';
import { escapeHtml, signInPage } from './oidc-views.ts';

describe('sign-in page', () => {
  it('escapes every interpolated value', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
    const html = signInPage({ action: '/oidc/interaction/a"b', clientLabel: '<b>', email: '"><script>x</script>', error: '<i>' });
    expect(html).not.toContain('<script>x');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<i>');
    expect(html).toContain('action="/oidc/interaction/a&#34;b"');
  });

  it('labels both fields and announces the error', () => {
    const html = signInPage({ action: '/x', clientLabel: 'Client demo', error: 'Invalid email or password' });
    expect(html).toMatch(/<label for="username">Email<\/label>\s*<input id="username" name="username"/);
    expect(html).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password"/);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Invalid email or password');
    expect(signInPage({ action: '/x', clientLabel: 'c' })).not.toContain('role="alert"');
  });
});
