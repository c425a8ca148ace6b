import { describe, expect, it } from 'vitest';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { versionDigest, versionWrites } from './versioned-write.ts';

/** A version keeps the record as stored, less the attributes its write names as secret: those only as a marker. */
const WRAPPED = 'AQICAHh-wrapped-password-bytes==';
const caller = {
  deps: { clock: createFixedClock(new Date('2026-01-02T03:04:05.000Z')) } as unknown as Dependencies,
  principal: { kind: 'user', client: 'acme', subject: 'user-1' } as UserPrincipal,
  activity: { trail: 'user' as const, client: 'acme', key: { pk: 'C#acme#LOG', sk: 'L#1' }, logId: '01JAAAAAAAAAAAAAAAAAAAAAAA' },
};
const stored: TableItem = {
  pk: 'C#acme#TRANSFER_CONFIGS',
  sk: 'CONFIG#nightly',
  entity: 'TransferConfig',
  schedule: 'cron(0 2 * * ? *)',
  sealed_zip_password: { key_id: 'tenant-key', wrapped: WRAPPED },
};

describe('versionWrites', () => {
  it('keeps each secret attribute the record has as its marker only, and the digest covers the version as kept', () => {
    const [put, activity] = versionWrites(caller, [
      {
        entity: 'comment',
        reference: 'nightly',
        stored,
        change: 'updated',
        redact: { sealed_zip_password: '(kept secret, changed)', sealed_sftp_password: '(kept secret, unchanged)' },
      },
    ]);
    if (put?.kind !== 'put') throw new Error('no version put');
    const version = put.item as TableItem & { record: Record<string, unknown>; sha256: string };
    // The secret set is a marker; the one the record did not have stays absent; the rest is exactly as stored.
    expect(version.record).toEqual({ ...stored, sealed_zip_password: '(kept secret, changed)' });
    expect(JSON.stringify([put, activity])).not.toContain(WRAPPED);
    const { pk: _pk, sk: _sk, entity: _entity, ...content } = version;
    expect(versionDigest(content as Parameters<typeof versionDigest>[0])).toBe(version.sha256);
    // The stored item itself is left as it was (the caller writes it on).
    expect(stored.sealed_zip_password).toEqual({ key_id: 'tenant-key', wrapped: WRAPPED });
  });

  it('keeps the record exactly as stored when nothing is named secret', () => {
    const [put] = versionWrites(caller, [{ entity: 'role', reference: 'nightly', stored, change: 'deleted' }]);
    expect(put?.kind === 'put' ? put.item.record : undefined).toEqual(stored);
  });
});
