import { createHash } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, createS3BlobStore } from './s3-blob-store.ts';

const buckets = { raw: 'verity-raw', processed: 'verity-processed' };

describe('S3 blob store pre-signing', () => {
  // Signing is local computation: no stand-in involved (s3rver does not check signatures anyway).
  const s3 = new S3Client({
    region: 'eu-west-2',
    endpoint: 'http://127.0.0.1:4569',
    forcePathStyle: true,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
  });
  const blobs = createS3BlobStore(s3, buckets);

  it('signs a short-lived GET on the mapped bucket, path-style, with a download name', async () => {
    const url = new URL(await blobs.presignGet('processed', 'acme/payloads/p1', { expiresInSeconds: 300, downloadName: 'call "1" é.m4a' }));
    expect(url.pathname).toBe('/verity-processed/acme/payloads/p1');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('response-content-disposition')).toBe(attachmentDisposition('call "1" é.m4a'));
  });

  it('signs a PUT for uploads bound to the declared size and SHA-256, kept as headers rather than query values', async () => {
    const sha256 = createHash('sha256').update('sealed bytes').digest('base64');
    const url = new URL(await blobs.presignPut('raw', 'acme/payloads/p2', { expiresInSeconds: 60, contentLength: 12, checksumSha256: sha256 }));
    expect(url.pathname).toBe('/verity-raw/acme/payloads/p2');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(expect.arrayContaining(['content-length', 'host', 'x-amz-checksum-sha256']));
    // A hoisted value would only be a query parameter: S3 checks a body against the headers.
    expect(url.searchParams.has('x-amz-checksum-sha256')).toBe(false);
    expect(url.searchParams.has('Content-Length')).toBe(false);
  });

  it('signs the size alone when no SHA-256 is declared', async () => {
    const url = new URL(await blobs.presignPut('raw', 'acme/migrations/m1', { expiresInSeconds: 60, contentLength: 99, contentType: 'text/csv' }));
    const signed = url.searchParams.get('X-Amz-SignedHeaders')?.split(';');
    expect(signed).toContain('content-length');
    expect(signed).not.toContain('x-amz-checksum-sha256');
  });

  it('keeps quotes and non-ASCII out of the plain filename', () => {
    expect(attachmentDisposition('a"b\\c€.txt')).toBe(`attachment; filename="a_b_c_.txt"; filename*=UTF-8''a%22b%5Cc%E2%82%AC.txt`);
  });
});
