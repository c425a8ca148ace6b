import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fileSha256 } from './file-sha256.ts';

describe('fileSha256', () => {
  it('is the hex SHA-256 of the file, as the upload link is bound to', async () => {
    const bytes = new TextEncoder().encode('{"kind":"verity-legacy-export"}\n');
    expect(await fileSha256(new Blob([bytes]))).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('leaves a file larger than it hashes to the size binding alone', async () => {
    expect(await fileSha256(new Blob([new Uint8Array(11)]), 10)).toBeUndefined();
  });
});
