import { z } from 'zod/mini';

/** The id token claims that name a person (Cognito's standard attributes; the local provider issues the same). */
const PersonClaims = z.object({
  name: z.optional(z.string()),
  given_name: z.optional(z.string()),
  family_name: z.optional(z.string()),
  email: z.optional(z.string()),
});

/** The token's payload, read without checking the signature: the server checks it on every call; this only labels. */
function payloadOf(idToken: string): unknown {
  const part = idToken.split('.')[1];
  if (part === undefined) return undefined;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * How the header names the signed-in person: the token's name, else given and family name, else the e-mail address.
 * Undefined when the token names nobody (the caller then shows nothing rather than an internal subject).
 */
export function displayNameOf(idToken: string | undefined): string | undefined {
  if (idToken === undefined) return undefined;
  const claims = PersonClaims.safeParse(payloadOf(idToken));
  if (!claims.success) return undefined;
  const { name, given_name: given, family_name: family, email } = claims.data;
  const fullName = name?.trim() || [given, family].filter((part) => part !== undefined && part.trim() !== '').join(' ');
  return fullName || email || undefined;
}

/**
 * The signed-in person's e-mail address from the token, lower-cased for comparing (a reviewer's own communications
 * are those of a device user with the same address). Undefined when the token carries none.
 */
export function emailOf(idToken: string | undefined): string | undefined {
  if (idToken === undefined) return undefined;
  const claims = PersonClaims.safeParse(payloadOf(idToken));
  const email = claims.success ? claims.data.email?.trim().toLowerCase() : undefined;
  return email === '' ? undefined : email;
}
