/**
 * A minimal ustar archive writer: an export is one `.tar` file, which every system unpacks with `tar` alone, so a firm
 * needs no Verity tool to reach the files sha256sum and openssl check. Members are small regular files with short
 * names (at most 99 bytes), owned by nobody, dated by the export.
 */

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 99) throw new Error(`Archive member name too long: ${name}`);
  const block = Buffer.alloc(BLOCK, 0);
  block.write(name, 0, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii'); // the checksum is summed with its own field as spaces
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The archive of these members, in this order. */
export function tarFile(members: readonly { name: string; content: Buffer }[], mtime: Date): Buffer {
  const parts: Buffer[] = [];
  for (const { name, content } of members) {
    parts.push(header(name, content.length, mtime), content);
    const padding = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (padding > 0) parts.push(Buffer.alloc(padding, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(parts);
}

/** The members of an archive tarFile wrote (regular files only); throws on a damaged header. */
export function readTarFile(archive: Buffer): { name: string; content: Buffer }[] {
  const members: { name: string; content: Buffer }[] = [];
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    const stored = Number.parseInt(block.subarray(148, 156).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    const sum = block.reduce((total, byte, index) => total + (index >= 148 && index < 156 ? 32 : byte), 0);
    if (stored !== sum) throw new Error(`The archive's header at byte ${offset} is damaged`);
    const name = block.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(block.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    const start = offset + BLOCK;
    if (!Number.isSafeInteger(size) || start + size > archive.length) throw new Error(`The archive's member ${name} is cut off`);
    members.push({ name, content: archive.subarray(start, start + size) });
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return members;
}
