import { describe, expect, it } from 'vitest';
import type { TransferItem } from '#shared/contract/entities/transfers.ts';
import { checksumVerdict } from './checksums.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const file = (dest_path: string, checksums: Record<string, string>): TransferItem => ({
  source_path: 'demo/payloads/p1',
  dest_path,
  checksums,
  attempts: 1,
  file_state: 'Delivered',
  file_kind: 'Recording',
});

describe('checksum verdict', () => {
  it('matches when the delivered bytes hash as the device sealed them', () => {
    expect(checksumVerdict(file('2026/p1.m4a', { delivered_sha256: A, device_sha256: A.toUpperCase() }))).toBe('match');
  });

  it('is a mismatch for an unpacked recording whose bytes differ, but not for a zip or PGP message', () => {
    expect(checksumVerdict(file('2026/p1.m4a', { delivered_sha256: A, device_sha256: B }))).toBe('mismatch');
    expect(checksumVerdict(file('2026/p1.m4a.pgp', { delivered_sha256: A, device_sha256: B }))).toBe('packed');
    expect(checksumVerdict(file('2026/delivery.zip', { delivered_sha256: A, device_sha256: B }))).toBe('packed');
  });

  it('waits while either checksum is missing; a file Verity wrote has no device copy to compare', () => {
    expect(checksumVerdict(file('2026/p1.m4a', { device_sha256: B }))).toBe('waiting');
    expect(checksumVerdict({ ...file('manifest.json', { delivered_sha256: A }), file_kind: 'Manifest' })).toBe('written');
  });
});
