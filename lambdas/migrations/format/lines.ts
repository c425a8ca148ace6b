/** One line of the file: its bytes (without the line end), or only its length when it was longer than allowed. */
export type Line = { number: number; bytes: Buffer } | { number: number; tooLong: true; length: number };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into numbered lines (`\n` or `\r\n`), holding at most `maxLineBytes` of one line: the parts of a
 * longer line are counted and dropped until its end, so memory is bounded by the cap whatever the file holds. A last
 * line without a newline is still a line.
 */
export async function* readLines(source: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let number = 0;

  const finish = (): Line => {
    number += 1;
    if (tooLong) return { number, tooLong: true, length };
    let bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, length);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, bytes.length - 1);
    return { number, bytes };
  };
  const append = (part: Buffer) => {
    length += part.length;
    if (tooLong) return;
    if (length > maxLineBytes) {
      tooLong = true;
      parts = [];
      return;
    }
    if (part.length > 0) parts.push(part);
  };

  for await (const chunk of source) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      append(buffer.subarray(start, end));
      yield finish();
      parts = [];
      length = 0;
      tooLong = false;
      start = end + 1;
    }
    // The rest of the chunk is the start of the next line: copied, so the caller's chunk buffer can be reused.
    if (start < buffer.length) append(Buffer.from(buffer.subarray(start)));
  }
  if (length > 0 || tooLong) yield finish();
}
