import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLockStore, deleteRefusal, isLocked, keySerializer, retentionChangeRefusal, type Retention } from './s3-object-lock-state.ts';

const now = new Date('2026-01-01T00:00:00.000Z');
const at = (offsetSeconds: number) => new Date(now.getTime() + offsetSeconds * 1000).toISOString();
const compliance = (offset: number): Retention => ({ mode: 'COMPLIANCE', retainUntil: at(offset) });
const governance = (offset: number): Retention => ({ mode: 'GOVERNANCE', retainUntil: at(offset) });

describe('Object Lock rules of the local S3 stand-in', () => {
  it('a legal hold refuses deletion even with the governance bypass', () => {
    expect(deleteRefusal({ key: 'k', versionId: 'v', legalHold: 'ON' }, true, now)).toMatch(/legal hold/);
    expect(deleteRefusal({ key: 'k', versionId: 'v', legalHold: 'OFF' }, false, now)).toBeUndefined();
  });

  it('retention refuses deletion until it expires; only GOVERNANCE gives way to the bypass', () => {
    expect(deleteRefusal({ key: 'k', versionId: 'v', retention: compliance(60) }, true, now)).toMatch(/COMPLIANCE/);
    expect(deleteRefusal({ key: 'k', versionId: 'v', retention: governance(60) }, false, now)).toMatch(/GOVERNANCE/);
    expect(deleteRefusal({ key: 'k', versionId: 'v', retention: governance(60) }, true, now)).toBeUndefined();
    expect(deleteRefusal({ key: 'k', versionId: 'v', retention: compliance(-1) }, false, now)).toBeUndefined();
    expect(isLocked({ key: 'k', versionId: 'v', retention: compliance(-1) }, now)).toBe(false);
  });

  it('COMPLIANCE may only be extended in the same mode, bypass or not', () => {
    expect(retentionChangeRefusal(compliance(60), compliance(120), false, now)).toBeUndefined();
    expect(retentionChangeRefusal(compliance(60), compliance(30), true, now)).toBeDefined();
    expect(retentionChangeRefusal(compliance(60), governance(120), true, now)).toBeDefined();
    expect(retentionChangeRefusal(compliance(60), undefined, true, now)).toBeDefined();
    expect(retentionChangeRefusal(compliance(-60), governance(10), false, now)).toBeUndefined();
  });

  it('GOVERNANCE may be extended freely; shortened, removed or turned to COMPLIANCE only with the bypass', () => {
    expect(retentionChangeRefusal(governance(60), governance(120), false, now)).toBeUndefined();
    for (const next of [governance(30), undefined, compliance(120)]) {
      expect(retentionChangeRefusal(governance(60), next, false, now)).toBeDefined();
      expect(retentionChangeRefusal(governance(60), next, true, now)).toBeUndefined();
    }
  });
});

describe('Object Lock state on disk', () => {
  const directory = mkdtempSync(join(tmpdir(), 'verity-lock-store-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps one file per key (any key, however named), and forgets it on removal', async () => {
    const store = createLockStore(directory);
    const key = '../../etc/passwd?x=1 ü';
    await store.put('bucket', { key, versionId: 'v1', legalHold: 'ON' });
    expect(await store.get('bucket', key)).toEqual({ key, versionId: 'v1', legalHold: 'ON' });
    expect(await createLockStore(directory).get('bucket', key)).toEqual({ key, versionId: 'v1', legalHold: 'ON' });
    expect(readdirSync(join(directory, 'bucket'))).toHaveLength(1);
    await store.remove('bucket', key);
    expect(await store.get('bucket', key)).toBeUndefined();
  });

  it('runs the work for one key one at a time, in order, even when one fails', async () => {
    const serialize = keySerializer();
    const order: string[] = [];
    const slow = serialize('k', async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push('first');
      throw new Error('first failed');
    });
    const fast = serialize('k', async () => void order.push('second'));
    await expect(slow).rejects.toThrow('first failed');
    await fast;
    expect(order).toEqual(['first', 'second']);
  });
});
