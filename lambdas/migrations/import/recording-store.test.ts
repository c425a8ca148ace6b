import { describe, expect, it } from 'vitest';
import { PayloadReference } from '#shared/contract/fields.ts';
import type { MalwareScanner, ScanVerdict } from '../../core/ports/malware-scanner.ts';
import { memoryBlobs } from '../../payloads/public.ts';
import type { ImportContext } from './context.ts';
import { legacyPayloadReference, storeMedia } from './recording-store.ts';

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

describe('storeMedia', () => {
  const item = { payload_reference: legacyPayloadReference('acme', 'rec-1'), payload_type: 'Call', payload_state: 'Recorded', device_reference: 'd-1', checksum: 'ab'.repeat(32) } as const;
  const contextWith = (verdicts: ScanVerdict[]) => {
    const blobs = memoryBlobs();
    const asked: number[] = [];
    const scanner: MalwareScanner = {
      inspect: async (subject) => {
        asked.push((await subject.body()).readableLength);
        return verdicts.shift() ?? { verdict: 'pending' };
      },
    };
    const deps = { blobs, scanner } as unknown as ImportContext['deps'];
    const context: ImportContext = { deps, client: 'acme', actor: 'job:migration:test', now: '2026-01-01T00:00:00.000Z', settings: { disable_onboarding: false, disable_offboarding: false, disable_payloads: false }, row: 2, metrics: { add: () => Promise.resolve(), flush: () => Promise.resolve() } };
    return { context, blobs, asked };
  };

  it('asks again while the scan is pending, and stores nothing when it never finishes', async () => {
    const { context, blobs, asked } = contextWith([{ verdict: 'pending' }, { verdict: 'pending' }]);
    const stored = await storeMedia(context, item, Buffer.from('media'), { scanWaitsMs: [0, 0, 0] });
    expect(stored).toEqual({ outcome: 'refused', message: 'The malware scan did not finish in time: nothing is stored; import the file again to finish it' });
    expect(asked).toHaveLength(4);
    expect(await blobs.head('processed', `acme/payloads/${item.payload_reference}`)).toBeUndefined();
  });

  it('stores nothing of infected media', async () => {
    const { context, blobs } = contextWith([{ verdict: 'infected', signature: 'EICAR-Test-File' }]);
    expect(await storeMedia(context, item, Buffer.from('media'), { scanWaitsMs: [] })).toMatchObject({ outcome: 'refused', message: expect.stringMatching(/found EICAR-Test-File/) });
    expect(await blobs.head('processed', `acme/payloads/${item.payload_reference}`)).toBeUndefined();
  });
});
