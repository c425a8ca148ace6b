import { randomBytes } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectRetentionCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The Object Lock calls Verity relies on (legal holds, retention in both modes, deletion refused while locked), as one
 * test body run against the local stack's stand-in and, when a bucket is given, against real S3: whatever the
 * stand-in answers here, S3 answers too.
 */
export interface ObjectLockTarget {
  s3: S3Client;
  /** A bucket created with Object Lock enabled. */
  bucket: string;
}

type Failure = { name?: string; $metadata?: { httpStatusCode?: number } };

/** The S3 error a call failed with (its code and HTTP status), or 'ok'. */
async function outcome(call: Promise<unknown>): Promise<'ok' | { code: string | undefined; status: number | undefined }> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    const failure = error as Failure;
    return { code: failure.name, status: failure.$metadata?.httpStatusCode };
  }
}
const accessDenied = { code: 'AccessDenied', status: 403 };
const inSeconds = (seconds: number) => new Date(Math.ceil(Date.now() / 1000) * 1000 + seconds * 1000);

export function describeObjectLockContract(name: string, target: () => ObjectLockTarget): void {
  describe(name, () => {
    const prefix = `verity-object-lock-contract/${randomBytes(6).toString('hex')}`;
    const cleanups: Array<() => Promise<unknown>> = [];
    afterAll(async () => {
      for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    });

    async function put(key: string, lock: Partial<{ ObjectLockLegalHoldStatus: 'ON' | 'OFF'; ObjectLockMode: 'GOVERNANCE' | 'COMPLIANCE'; ObjectLockRetainUntilDate: Date }> = {}) {
      const { s3, bucket } = target();
      const Key = `${prefix}/${key}`;
      const result = await s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: `evidence ${key}`, ...lock }));
      expect(result.VersionId).toBeTruthy();
      const VersionId = result.VersionId as string;
      // Whatever a test leaves, lift it: release the hold, delete with the governance bypass.
      cleanups.push(async () => {
        await s3.send(new PutObjectLegalHoldCommand({ Bucket: bucket, Key, VersionId, LegalHold: { Status: 'OFF' } })).catch(() => undefined);
        await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key, VersionId, BypassGovernanceRetention: true }));
      });
      return { Bucket: bucket, Key, VersionId };
    }

    it('a legal hold refuses deletion until it is released', async () => {
      const { s3 } = target();
      const object = await put('held.txt', { ObjectLockLegalHoldStatus: 'ON' });
      expect((await s3.send(new GetObjectLegalHoldCommand(object))).LegalHold?.Status).toBe('ON');
      expect((await s3.send(new HeadObjectCommand(object))).ObjectLockLegalHoldStatus).toBe('ON');
      expect(await outcome(s3.send(new DeleteObjectCommand(object)))).toEqual(accessDenied);
      // The governance bypass does not lift a legal hold.
      expect(await outcome(s3.send(new DeleteObjectCommand({ ...object, BypassGovernanceRetention: true })))).toEqual(accessDenied);

      await s3.send(new PutObjectLegalHoldCommand({ ...object, LegalHold: { Status: 'OFF' } }));
      expect((await s3.send(new GetObjectLegalHoldCommand(object))).LegalHold?.Status).toBe('OFF');
      expect(await outcome(s3.send(new DeleteObjectCommand(object)))).toBe('ok');
      expect(await outcome(s3.send(new HeadObjectCommand({ Bucket: object.Bucket, Key: object.Key })))).toMatchObject({ status: 404 });
    });

    it('a legal hold can be placed on an object after it was written', async () => {
      const { s3 } = target();
      const object = await put('held-later.txt');
      expect(await outcome(s3.send(new GetObjectLegalHoldCommand(object)))).toEqual({ code: 'NoSuchObjectLockConfiguration', status: 404 });
      await s3.send(new PutObjectLegalHoldCommand({ ...object, LegalHold: { Status: 'ON' } }));
      expect(await outcome(s3.send(new DeleteObjectCommand(object)))).toEqual(accessDenied);
      await s3.send(new PutObjectLegalHoldCommand({ ...object, LegalHold: { Status: 'OFF' } }));
      expect(await outcome(s3.send(new DeleteObjectCommand(object)))).toBe('ok');
    });

    it('COMPLIANCE retention can only be extended, and refuses deletion until it expires', { timeout: 60_000 }, async () => {
      const { s3 } = target();
      const until = inSeconds(6);
      const object = await put('compliance.txt', { ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: until });
      const retention = (await s3.send(new GetObjectRetentionCommand(object))).Retention;
      expect(retention?.Mode).toBe('COMPLIANCE');
      expect(retention?.RetainUntilDate?.getTime()).toBe(until.getTime());
      expect((await s3.send(new HeadObjectCommand(object))).ObjectLockMode).toBe('COMPLIANCE');

      const shorter = { Mode: 'COMPLIANCE' as const, RetainUntilDate: inSeconds(3) };
      expect(await outcome(s3.send(new PutObjectRetentionCommand({ ...object, Retention: shorter })))).toEqual(accessDenied);
      expect(await outcome(s3.send(new PutObjectRetentionCommand({ ...object, Retention: shorter, BypassGovernanceRetention: true })))).toEqual(accessDenied);
      const toGovernance = { Mode: 'GOVERNANCE' as const, RetainUntilDate: inSeconds(60) };
      expect(await outcome(s3.send(new PutObjectRetentionCommand({ ...object, Retention: toGovernance, BypassGovernanceRetention: true })))).toEqual(
        accessDenied,
      );
      expect(await outcome(s3.send(new DeleteObjectCommand(object)))).toEqual(accessDenied);
      expect(await outcome(s3.send(new DeleteObjectCommand({ ...object, BypassGovernanceRetention: true })))).toEqual(accessDenied);

      const extended = inSeconds(8);
      await s3.send(new PutObjectRetentionCommand({ ...object, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: extended } }));
      expect((await s3.send(new GetObjectRetentionCommand(object))).Retention?.RetainUntilDate?.getTime()).toBe(extended.getTime());

      // Once the date has passed the version may go (S3's clock may trail ours by a moment: ask again for a while).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, extended.getTime() - Date.now()) + 500));
      let deleted = await outcome(s3.send(new DeleteObjectCommand(object)));
      for (let tries = 0; deleted !== 'ok' && tries < 10; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        deleted = await outcome(s3.send(new DeleteObjectCommand(object)));
      }
      expect(deleted).toBe('ok');
    });

    it('GOVERNANCE retention gives way to the bypass header, and only to it', async () => {
      const { s3 } = target();
      const object = await put('governance.txt');
      const until = inSeconds(3600);
      await s3.send(new PutObjectRetentionCommand({ ...object, Retention: { Mode: 'GOVERNANCE', RetainUntilDate: until } }));
      expect((await s3.send(new GetObjectRetentionCommand(object))).Retention).toEqual({ Mode: 'GOVERNANCE', RetainUntilDate: until });

      expect(await outcome(s3.send(new DeleteObjectCommand(object)))).toEqual(accessDenied);
      const shorter = { Mode: 'GOVERNANCE' as const, RetainUntilDate: inSeconds(1800) };
      expect(await outcome(s3.send(new PutObjectRetentionCommand({ ...object, Retention: shorter })))).toEqual(accessDenied);
      // Extending needs no bypass.
      const later = inSeconds(7200);
      await s3.send(new PutObjectRetentionCommand({ ...object, Retention: { Mode: 'GOVERNANCE', RetainUntilDate: later } }));
      await s3.send(new PutObjectRetentionCommand({ ...object, Retention: shorter, BypassGovernanceRetention: true }));
      expect((await s3.send(new GetObjectRetentionCommand(object))).Retention?.RetainUntilDate?.getTime()).toBe(shorter.RetainUntilDate.getTime());

      expect(await outcome(s3.send(new DeleteObjectCommand({ ...object, BypassGovernanceRetention: true })))).toBe('ok');
    });

    it('refuses a retain-until date in the past', async () => {
      const { s3 } = target();
      const object = await put('past.txt');
      const past = { Mode: 'GOVERNANCE' as const, RetainUntilDate: new Date(Date.now() - 60_000) };
      expect(await outcome(s3.send(new PutObjectRetentionCommand({ ...object, Retention: past })))).toMatchObject({ status: 400 });
      expect(await outcome(s3.send(new DeleteObjectCommand(object)))).toBe('ok');
    });
  });
}
