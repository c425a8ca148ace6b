import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** One file written into the production's folder: its path inside the production, its size and SHA-256. */
export interface WrittenFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * The production's folder on the function's local disk while it is assembled: every file is hashed as it is written,
 * so the manifest lists what was written, not what was meant to be.
 */
export class ProductionFolder {
  readonly files: WrittenFile[] = [];

  constructor(readonly root: string) {}

  /** Writes bytes held in memory (an EML, a load file). */
  writeBytes(path: string, bytes: Buffer | string): WrittenFile {
    const body = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    const target = this.local(path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, body);
    return this.add({ path, size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
  }

  /** Streams a body to the file (a recording); a body that errors (a failed check) leaves no file listed. */
  async writeStream(path: string, body: AsyncIterable<Uint8Array>): Promise<WrittenFile> {
    const target = this.local(path);
    mkdirSync(dirname(target), { recursive: true });
    const hash = createHash('sha256');
    let size = 0;
    async function* counted() {
      for await (const chunk of body) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    }
    await pipeline(Readable.from(counted()), createWriteStream(target));
    return this.add({ path, size, sha256: hash.digest('hex') });
  }

  /** The file's place on the local disk. Paths are made here from control numbers and fixed names only. */
  local(path: string): string {
    return join(this.root, ...path.split('/'));
  }

  /** Takes a file off this folder's list (it is moving to another part's folder: production-parts.ts `moveFile`). */
  detach(path: string): WrittenFile {
    const index = this.files.findIndex((file) => file.path === path);
    const [file] = index < 0 ? [] : this.files.splice(index, 1);
    if (file === undefined) throw new Error(`${path} is not in this folder`);
    return file;
  }

  /** Lists a file moved into this folder, as it was written and hashed. */
  adopt(file: WrittenFile): WrittenFile {
    return this.add(file);
  }

  private add(file: WrittenFile): WrittenFile {
    this.files.push(file);
    return file;
  }
}
