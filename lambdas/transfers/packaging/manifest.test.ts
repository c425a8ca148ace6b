import { describe, expect, it } from 'vitest';
import { TRANSFER_MANIFEST_COLUMNS, TransferManifest } from '#shared/contract/entities/transfer-manifest.ts';
import { PackagingError } from './errors.ts';
import { buildTransferManifest, manifestCsv, manifestJson, type ManifestInput } from './manifest.ts';

const hash = (digit: string) => digit.repeat(64);

const input = (overrides: Partial<ManifestInput> = {}): ManifestInput => ({
  transferId: '01JDQTRANSFER000000000000A',
  transferConfigReference: 'nightly-export',
  format: 'ZippedWithPassword',
  pgpFingerprint: 'A7D0D0A826E76D5D231D746FB6A0C43B5D929735',
  generatedAt: new Date('2026-11-24T08:10:00Z'),
  outputs: [
    {
      name: 'transfer.zip.pgp',
      size: 2048,
      sha256: hash('f'),
      entries: [
        { name: 'calls/a.m4a', size: 1000, sha256: hash('a') },
        { name: 'sms/quote "this", then\r\nthat.txt', size: 12, sha256: hash('b') },
      ],
    },
  ],
  sources: [
    { entryName: 'calls/a.m4a', payloadReference: '01JDQPAYLOAD00000000000001', sourcePath: 'processed/acme/a', deviceSha256: hash('A'), recordedAt: '2026-11-24T08:01:00.000Z', uploadedAt: '2026-11-24T08:02:00.000Z', processedAt: '2026-11-24T08:03:00.000Z' },
    { entryName: 'sms/quote "this", then\r\nthat.txt', payloadReference: '01JDQPAYLOAD00000000000002', sourcePath: 'processed/acme/b', deviceSha256: hash('b'), recordedAt: '2026-11-24T08:01:00.000Z', uploadedAt: '2026-11-24T08:02:00.000Z', processedAt: '2026-11-24T08:03:00.000Z' },
  ],
  deliveries: [{ outputName: 'transfer.zip.pgp', destPath: 's3://receiver/verity/transfer.zip.pgp', transferredAt: '2026-11-24T08:09:00.000Z' }],
  ...overrides,
});

const refusal = (value: ManifestInput): readonly string[] => {
  try {
    buildTransferManifest(value);
  } catch (error) {
    expect(error).toBeInstanceOf(PackagingError);
    return (error as PackagingError).lines;
  }
  throw new Error('the manifest was built');
};

describe('buildTransferManifest', () => {
  it('joins digests, sources and deliveries into a manifest the contract accepts', () => {
    const manifest = buildTransferManifest(input());
    expect(TransferManifest.parse(JSON.parse(manifestJson(manifest)))).toEqual(manifest);
    expect(manifest.deliveries).toEqual([{ name: 'transfer.zip.pgp', dest_path: 's3://receiver/verity/transfer.zip.pgp', size: 2048, sha256: hash('f'), transferred_at: '2026-11-24T08:09:00.000Z' }]);
    expect(manifest.files[0]).toEqual({
      payload_reference: '01JDQPAYLOAD00000000000001',
      source_path: 'processed/acme/a',
      dest_path: 's3://receiver/verity/transfer.zip.pgp',
      archive_path: 'calls/a.m4a',
      size: 1000,
      delivered_sha256: hash('f'),
      plaintext_sha256: hash('a'),
      recorded_at: '2026-11-24T08:01:00.000Z',
      uploaded_at: '2026-11-24T08:02:00.000Z',
      processed_at: '2026-11-24T08:03:00.000Z',
      transferred_at: '2026-11-24T08:09:00.000Z',
    });
  });

  it('refuses a recording whose packaged bytes do not hash to the device’s checksum', () => {
    const sources = input().sources.map((source, index) => (index === 0 ? { ...source, deviceSha256: hash('c') } : source));
    expect(refusal(input({ sources }))).toEqual([`sources: "calls/a.m4a" read as SHA-256 ${hash('a')}, but the device sealed ${hash('c')}`]);
  });

  it('refuses anything left out: an entry with no source, a source never packaged, an output never delivered', () => {
    const [first, second] = input().sources;
    expect(refusal(input({ sources: [first!] }))).toEqual(['sources: "sms/quote \\"this\\", then\\r\\nthat.txt" was packaged but has no source']);
    expect(refusal(input({ sources: [first!, second!, { ...first!, entryName: 'missing.m4a' }] }))).toEqual(['sources: "missing.m4a" was never packaged']);
    expect(refusal(input({ deliveries: [] }))).toEqual([
      'deliveries: "transfer.zip.pgp" was packaged but has no delivery',
      'sources: "calls/a.m4a" was never packaged',
      'sources: "sms/quote \\"this\\", then\\r\\nthat.txt" was never packaged',
    ]);
  });

  it('refuses values the contract would not accept, one path: message line each', () => {
    const lines = refusal(input({ pgpFingerprint: 'abc', deliveries: [{ ...input().deliveries[0]!, transferredAt: 'yesterday' }] }));
    expect(lines).toContain('manifest.pgp_fingerprint: Must be an upper-case hex PGP fingerprint');
    expect(lines).toContain('manifest.deliveries.0.transferred_at: Must be an ISO date like 1999-01-01T16:50:00Z');
  });
});

describe('manifestCsv', () => {
  it('writes RFC 4180: the contract’s columns, CRLF line ends, quoted fields with doubled quotes', () => {
    const csv = manifestCsv(buildTransferManifest(input()));
    const rows = csv.split(/\r\n(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    expect(rows[0]).toBe(TRANSFER_MANIFEST_COLUMNS.join(','));
    expect(rows[0]).toBe('payload_reference,source_path,dest_path,archive_path,size,delivered_sha256,plaintext_sha256,recorded_at,uploaded_at,processed_at,transferred_at');
    expect(rows[1]).toBe(`01JDQPAYLOAD00000000000001,processed/acme/a,s3://receiver/verity/transfer.zip.pgp,calls/a.m4a,1000,${hash('f')},${hash('a')},2026-11-24T08:01:00.000Z,2026-11-24T08:02:00.000Z,2026-11-24T08:03:00.000Z,2026-11-24T08:09:00.000Z`);
    expect(rows[2]).toContain(',"sms/quote ""this"", then\r\nthat.txt",12,');
    expect(rows[3]).toBe('');
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('leaves the archive path empty for Uncompressed deliveries', () => {
    const manifest = buildTransferManifest(input({ format: 'Uncompressed' }));
    expect(manifest.files.every((file) => file.archive_path === undefined)).toBe(true);
    expect(manifestCsv(manifest).split('\r\n')[1]).toContain('s3://receiver/verity/transfer.zip.pgp,,1000,');
  });
});
