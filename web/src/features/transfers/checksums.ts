import { TRANSFER_CHECKSUM, type TransferItem } from '#shared/contract/entities/transfers.ts';

/**
 * How a delivered file's SHA-256 compares with the device's:
 * - `match`: the bytes that arrived are the recording exactly as the device sealed it;
 * - `mismatch`: the file is the recording itself (not packed) yet its bytes hash differently: not the device's bytes;
 * - `packed`: the file is a zip or PGP message, so its hash is of the package; the manifest lists the recording's
 *   plaintext SHA-256 to compare once it is unpacked (the job already refuses a recording that does not match);
 * - `written`: a file Verity wrote for the delivery (the manifest, a report): no device made it, so none to compare;
 * - `waiting`: a checksum is not known yet (not delivered).
 */
export type ChecksumVerdict = 'match' | 'mismatch' | 'packed' | 'written' | 'waiting';

const PACKED = /\.(zip|pgp|gpg|7z)$/i;

export function checksumsOf(file: TransferItem): { delivered?: string; device?: string } {
  const delivered = file.checksums[TRANSFER_CHECKSUM.delivered];
  const device = file.checksums[TRANSFER_CHECKSUM.device];
  return { ...(delivered === undefined ? {} : { delivered }), ...(device === undefined ? {} : { device }) };
}

export function checksumVerdict(file: TransferItem): ChecksumVerdict {
  const { delivered, device } = checksumsOf(file);
  if (file.file_kind !== 'Recording') return 'written';
  if (delivered === undefined || device === undefined) return 'waiting';
  if (delivered.toLowerCase() === device.toLowerCase()) return 'match';
  return PACKED.test(file.dest_path) ? 'packed' : 'mismatch';
}

export const CHECKSUM_VERDICT_LABELS: Record<ChecksumVerdict, string> = {
  match: 'Matches the device',
  mismatch: 'Does not match the device',
  packed: 'Packed: compare after unpacking',
  written: 'Written by Verity: no device copy',
  waiting: 'Not compared yet',
};
