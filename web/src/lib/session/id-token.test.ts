import { describe, expect, it } from 'vitest';
import { displayNameOf } from './id-token.ts';

const token = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

describe('displayNameOf', () => {
  it('names the person by given and family name, never by the subject', () => {
    expect(displayNameOf(token({ sub: 'demo-reviewer', given_name: 'Robin', family_name: 'Reviewer', email: 'reviewer@demo.test' }))).toBe('Robin Reviewer');
  });

  it('prefers a full name claim, and falls back to the e-mail address', () => {
    expect(displayNameOf(token({ name: 'Zoë Ōkubo', given_name: 'Z' }))).toBe('Zoë Ōkubo');
    expect(displayNameOf(token({ sub: 'x', email: 'staff@verity.test' }))).toBe('staff@verity.test');
  });

  it('gives nothing for a token that names nobody or cannot be read', () => {
    expect(displayNameOf(token({ sub: 'x' }))).toBeUndefined();
    expect(displayNameOf('not-a-token')).toBeUndefined();
    expect(displayNameOf(undefined)).toBeUndefined();
  });
});
