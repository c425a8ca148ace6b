import { describe, expect, it } from 'vitest';
import { PayloadReference } from '#shared/contract/fields.ts';
import { legacyPayloadReference } from './recording-store.ts';

describe('legacyPayloadReference', () => {
  it('is a name-based UUID: the same for the same tenant and legacy reference, apart for another of either', () => {
    const reference = legacyPayloadReference('acme', 'rec-1');
    expect(reference).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(PayloadReference.safeParse(reference).success).toBe(true);
    expect(legacyPayloadReference('acme', 'rec-1')).toBe(reference);
    expect(legacyPayloadReference('acme', 'rec-2')).not.toBe(reference);
    expect(legacyPayloadReference('demo', 'rec-1')).not.toBe(reference);
    // The separator keeps tenant and reference apart: ("acme", "x") and ("acmex", "") are two names.
    expect(legacyPayloadReference('acm', 'erec-1')).not.toBe(reference);
  });
});
