import type { ProductionItem } from '#core/store/entities/production.ts';
import type { WrittenFile } from './production-files.ts';

/** One document's chain of custody: from the device's seal to its place in the production. */
export interface DocumentCustody {
  doc_id: string;
  payload_reference: string;
  payload_type: string;
  native_path: string;
  native_sha256: string;
  /** SHA-256 the device sealed; the stored recording was verified against it as it was read. */
  device_sha256: string;
  /** The sealed object the recording was read from. */
  source_path: string;
  recorded_at?: string | undefined;
  uploaded_at?: string | undefined;
  processed_at?: string | undefined;
  verified_at: string;
}

/** The manifest's names in the production: JSON with the custody, and a list `sha256sum -c` checks. */
export const MANIFEST_JSON = 'manifest.json';
export const MANIFEST_SHA256 = 'manifest.sha256';

/**
 * The manifest as JSON: the production (what, for whom, by whom, when), every file with its size and SHA-256, and
 * each document's chain of custody, as the transfer manifest carries a recording's (device seal, upload, processing,
 * the read that verified it).
 */
export function manifestJson(production: ProductionItem, generatedAt: string, files: readonly WrittenFile[], documents: readonly DocumentCustody[], part?: { part: number; archive: string }): string {
  const manifest = {
    manifest_version: 1,
    client: production.client,
    production_reference: production.production_reference,
    production_kind: production.production_kind,
    ...(production.case_reference === undefined ? {} : { case_reference: production.case_reference }),
    criteria: production.criteria,
    control_first: production.control_first,
    control_last: production.control_last,
    requested_by: production.created_by,
    requested_at: production.created_at,
    generated_at: generatedAt,
    // A production in parts: which part this is (the last part's production-manifest.json names them all).
    ...(part === undefined ? {} : part),
    files: files.map((file) => ({ path: file.path, size: file.size, sha256: file.sha256 })),
    documents,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Every file as `sha256sum` prints it (`<hex>  <path>`), so `sha256sum -c manifest.sha256` checks the production. */
export function sha256List(files: readonly WrittenFile[]): string {
  return files.map((file) => `${file.sha256}  ${file.path}\n`).join('');
}
