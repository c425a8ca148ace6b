import { DeleteObjectCommand, GetObjectTaggingCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { objectKeyOfQuarantineKey, quarantineObjectKey } from '../../store/keys.ts';
import { createGuardDutyScanner } from './guardduty-scanner.ts';

const s3 = mockClient(S3Client);
const scanner = createGuardDutyScanner(new S3Client({ region: 'eu-west-2' }), 'verity-scan');
const subject = (body: () => Promise<Readable> = () => Promise.reject(new Error('not read'))) => ({
  bucket: 'raw' as const,
  key: 'acme/payloads/p1',
  revision: '"9bb07a63"',
  contentLength: 5,
  body,
});
const tagged = (value: string) => ({ TagSet: [{ Key: 'GuardDutyMalwareScanStatus', Value: value }] });
const noSuchKey = () => Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });

beforeEach(() => s3.reset());

describe('GuardDuty scanner', () => {
  it('copies the plaintext to the quarantine bucket once and waits for the tag', async () => {
    s3.on(GetObjectTaggingCommand).rejectsOnce(noSuchKey()).resolvesOnce({ TagSet: [] });
    s3.on(PutObjectCommand).resolves({});
    expect(await scanner.inspect(subject(async () => Readable.from([Buffer.from('hello')])))).toEqual({ verdict: 'pending' });
    const put = s3.commandCalls(PutObjectCommand)[0]?.args[0].input;
    expect(put).toMatchObject({ Bucket: 'verity-scan', Key: 'acme/payloads/p1/9bb07a63', ContentLength: 5 });
    // Copied, not yet tagged: still pending, and the body is not read again.
    expect(await scanner.inspect(subject())).toEqual({ verdict: 'pending' });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it('reads the verdict from the tag, then deletes the copy; anything but NO_THREATS_FOUND is infected', async () => {
    s3.on(GetObjectTaggingCommand)
      .resolvesOnce(tagged('NO_THREATS_FOUND'))
      .resolvesOnce(tagged('THREATS_FOUND'))
      .resolvesOnce(tagged('UNSUPPORTED'));
    s3.on(DeleteObjectCommand).rejectsOnce(new Error('throttled')).resolves({});
    expect(await scanner.inspect(subject())).toEqual({ verdict: 'clean' });
    expect(await scanner.inspect(subject())).toEqual({ verdict: 'infected', signature: 'GuardDuty:THREATS_FOUND' });
    expect(await scanner.inspect(subject())).toEqual({ verdict: 'infected', signature: 'GuardDuty:UNSUPPORTED' });
    expect(s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input)).toEqual(
      Array.from({ length: 3 }, () => ({ Bucket: 'verity-scan', Key: 'acme/payloads/p1/9bb07a63' })),
    );
  });

  it('fails (processing retries) when the copy is refused, S3 errors, or the bucket is not configured', async () => {
    // (A body that fails mid-copy aborts the PUT through sendPut, proven against s3rver in test/integration/adapters.)
    s3.on(GetObjectTaggingCommand).rejectsOnce(noSuchKey()).rejectsOnce(new Error('AccessDenied'));
    s3.on(PutObjectCommand).rejects(new Error('SlowDown'));
    await expect(scanner.inspect(subject(async () => Readable.from([Buffer.from('hello')])))).rejects.toThrow('SlowDown');
    await expect(scanner.inspect(subject())).rejects.toThrow('AccessDenied');
    await expect(createGuardDutyScanner(new S3Client({ region: 'eu-west-2' }), undefined).inspect(subject())).rejects.toThrow('SCAN_BUCKET missing');
  });

  it('names one quarantine copy per upload, and maps it back to the raw key', () => {
    expect(quarantineObjectKey('acme/payloads/p1', '"abc-2"')).toBe('acme/payloads/p1/abc-2');
    expect(quarantineObjectKey('acme/payloads/p1', undefined)).toBe('acme/payloads/p1/unknown');
    expect(objectKeyOfQuarantineKey('acme/payloads/p1/abc-2')).toBe('acme/payloads/p1');
    expect(objectKeyOfQuarantineKey('nothing')).toBeUndefined();
  });
});
