import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '#core/config.ts';
import type { ProducedDocument } from './load-files.ts';
import { ProductionFolder, type WrittenFile } from './production-files.ts';
import type { DocumentCustody } from './production-manifest.ts';

/**
 * A production in parts (docs/productions.md "Parts"): the function's temporary storage holds one part at a time, so a
 * production larger than a part is written, packaged and delivered part by part, each part a self-contained archive
 * (its natives, its load files, its own manifest), the control numbers continuing across them. The last part also
 * carries the production's manifest, naming every part and every file's SHA-256.
 */

/** How large one part may grow: bytes of natives and documents (a part holds at least one document). */
export interface PartBounds {
  bytes: number;
  documents: number;
}

export const partBoundsOf = (config: Pick<Config, 'PRODUCTION_PART_BYTES' | 'PRODUCTION_PART_DOCUMENTS'>): PartBounds => ({
  bytes: config.PRODUCTION_PART_BYTES,
  documents: config.PRODUCTION_PART_DOCUMENTS,
});

/** The production's manifest across its parts, in the last part. */
export const PRODUCTION_MANIFEST = 'production-manifest.json';

/** One part while it is written: its folder on the local disk and what it holds so far. */
export interface OpenPart {
  index: number;
  folder: ProductionFolder;
  documents: ProducedDocument[];
  custody: DocumentCustody[];
  bytes: number;
}

/** A part once delivered: its archive's name and the files it held. */
export interface DeliveredPart {
  index: number;
  archive: string;
  files: WrittenFile[];
  first?: string | undefined;
  last?: string | undefined;
}

/** A new part's folder under the job's work folder. */
export function openPart(work: string, index: number): OpenPart {
  return { index, folder: new ProductionFolder(join(work, `part-${index}`)), documents: [], custody: [], bytes: 0 };
}

/** Whether the part is full before the next document: it has reached its documents, or the next would pass its bytes. */
export function partIsFull(part: OpenPart, bounds: PartBounds, nextBytes = 0): boolean {
  if (part.documents.length === 0) return false;
  return part.documents.length >= bounds.documents || part.bytes + nextBytes > bounds.bytes;
}

/** Moves a file just written into one part's folder into another's (the document opens the next part). */
export function moveFile(from: ProductionFolder, to: ProductionFolder, path: string): WrittenFile {
  const file = from.detach(path);
  const target = to.local(path);
  mkdirSync(dirname(target), { recursive: true });
  renameSync(from.local(path), target);
  return to.adopt(file);
}

/**
 * The archive a part is delivered as: `<reference>.zip` when the production is one part (as a production always was),
 * else `<reference>_part001.zip`, `<reference>_part002.zip`, ...
 */
export function partArchiveName(reference: string, index: number, only: boolean): string {
  return only ? `${reference}.zip` : `${reference}_part${String(index).padStart(3, '0')}.zip`;
}

/** The production's manifest: every part (its archive, its control numbers) and every file in it with its SHA-256. */
export function productionManifest(reference: string, generatedAt: string, parts: readonly DeliveredPart[]): string {
  const manifest = {
    manifest_version: 1,
    production_reference: reference,
    generated_at: generatedAt,
    parts: parts.map((part) => ({
      part: part.index,
      archive: part.archive,
      control_first: part.first,
      control_last: part.last,
      files: part.files.map((file) => ({ path: file.path, size: file.size, sha256: file.sha256 })),
    })),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
