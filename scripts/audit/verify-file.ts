import { createHash, verify } from 'node:crypto';
import { canonicalJson, type Json } from '../../lambdas/audit/trail/canonical-json.ts';
import { GENESIS_HASH, linkHash, type LinkContent } from '../../lambdas/audit/trail/activity-chain.ts';
import { EXPORT_FORMAT, EXPORT_MEMBERS, MANIFEST_SIGNING_ALGORITHM, type ExportDescription, type ExportedRecord } from '../../lambdas/audit/export/export-file.ts';
import { readTarFile } from '../../lambdas/audit/export/tar-file.ts';

/**
 * Verifies an exported activity trail (lambdas/audit/export/export-file.ts) offline, with nothing but the file and the
 * published public key: the manifest's signature, each file's SHA-256 against the manifest, every record's content
 * against its link's entry hash, every link's hash and its link to the one before, and the signed checkpoints (their
 * signatures, and that the chain reaches the one the export says covers it). Names the first break.
 */

export interface FileReport {
  whole: boolean;
  /** What holds, or the first break. */
  summary: string;
  /** Notes that are no break (a copy of the key used, records not yet covered by a checkpoint). */
  notes: string[];
}

class Broken extends Error {}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function parseLines<T>(name: string, content: Buffer): T[] {
  const text = content.toString('utf8');
  if (text !== '' && !text.endsWith('\n')) throw new Broken(`${name} does not end with a newline (it was cut or changed)`);
  return text
    .split('\n')
    .slice(0, -1)
    .map((line, index) => {
      try {
        return JSON.parse(line) as T;
      } catch {
        throw new Broken(`${name} line ${index + 1} is not JSON (it was changed)`);
      }
    });
}

function signatureHolds(publicKeyPem: string, message: Buffer, signature: Buffer): boolean {
  try {
    return verify('sha256', message, { key: publicKeyPem, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/** The records' chain: each line's content against its entry hash, its link's hash, and the link before. */
function checkRecords(records: ExportedRecord[], description: ExportDescription): { hashes: Map<number, string>; disposed: number } {
  const hashes = new Map<number, string>();
  let disposed = 0;
  let previous: { sequence: number; hash: string } | undefined;
  for (const [index, line] of records.entries()) {
    const link = line?.link;
    const name = `record #${String(line?.sequence).slice(0, 20)} (trail.jsonl line ${index + 1}${typeof link?.record === 'string' ? `, ${link.record.slice(0, 80)}` : ''})`;
    if (typeof link !== 'object' || link === null) throw new Broken(`${name} has no link`);
    const { hash, ...content } = link;
    if (linkHash(content as LinkContent) !== hash) throw new Broken(`${name}: its link does not match its hash (a chain field was changed)`);
    if (content.sequence !== line.sequence || content.client !== description.client || content.trail !== description.trail) {
      throw new Broken(`${name}: its link names another place (sequence, tenant or trail)`);
    }
    if (previous !== undefined && (content.sequence !== previous.sequence + 1 || content.previous_hash !== previous.hash)) {
      throw new Broken(`${name} does not follow record #${previous.sequence} (a record was removed, inserted or replaced)`);
    }
    if (previous === undefined && content.sequence === 1 && content.previous_hash !== GENESIS_HASH) throw new Broken(`${name}: the first link does not start the chain`);
    if (line.record === null) {
      disposed += 1; // retention disposed of it: the link still vouches for what it was, the content is gone
    } else if (sha256(canonicalJson(line.record as Json)) !== content.entry_hash) {
      throw new Broken(`${name}: its content does not match the entry hash its link holds (the record was changed)`);
    }
    hashes.set(content.sequence, hash);
    previous = { sequence: content.sequence, hash };
  }
  if (records.length !== description.records) throw new Broken(`trail.jsonl holds ${records.length} records, export.json says ${description.records}`);
  return { hashes, disposed };
}

/** Verifies the archive's bytes. `trustedPublicKeyPem`: the key published by Verity; else the file's own copy (noted). */
export function verifyExportFile(archive: Buffer, trustedPublicKeyPem?: string): FileReport {
  const notes: string[] = [];
  try {
    let members;
    try {
      members = new Map(readTarFile(archive).map((member) => [member.name, member.content]));
    } catch (error) {
      throw new Broken(error instanceof Error ? error.message : String(error));
    }
    const member = (name: string) => {
      const content = members.get(name);
      if (content === undefined) throw new Broken(`the file holds no ${name}`);
      return content;
    };
    const manifest = member(EXPORT_MEMBERS.manifest);
    const publicKey = trustedPublicKeyPem ?? member(EXPORT_MEMBERS.publicKey).toString('utf8');
    if (trustedPublicKeyPem === undefined) notes.push('verified against the public key inside the file: give --public-key with the key Verity publishes to trust it');
    if (!signatureHolds(publicKey, manifest, member(EXPORT_MEMBERS.signature))) throw new Broken('manifest.sha256 is not signed by the audit signing key (the manifest or its signature was changed)');

    const listed = new Map<string, string>();
    for (const line of manifest.toString('utf8').split('\n').filter((text) => text !== '')) {
      const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
      if (match === null) throw new Broken(`manifest.sha256 line "${line.slice(0, 80)}" is not a checksum line`);
      listed.set(match[2] as string, match[1] as string);
    }
    for (const name of [EXPORT_MEMBERS.trail, EXPORT_MEMBERS.checkpoints, EXPORT_MEMBERS.description]) {
      if (!listed.has(name)) throw new Broken(`manifest.sha256 does not list ${name}`);
    }
    const description = JSON.parse(member(EXPORT_MEMBERS.description).toString('utf8')) as ExportDescription;
    if (sha256(member(EXPORT_MEMBERS.description)) !== listed.get(EXPORT_MEMBERS.description)) throw new Broken('export.json does not match its SHA-256 in the manifest');
    if (description.format !== EXPORT_FORMAT || description.signature_algorithm !== MANIFEST_SIGNING_ALGORITHM) throw new Broken(`export.json names a format this verifier does not know: ${String(description.format)}`);

    const trailBytes = member(EXPORT_MEMBERS.trail);
    const trailMatches = sha256(trailBytes) === listed.get(EXPORT_MEMBERS.trail);
    // The record walk runs even when the file's hash is off, to name the first record that was changed.
    const { hashes, disposed } = checkRecords(parseLines<ExportedRecord>(EXPORT_MEMBERS.trail, trailBytes), description);
    if (!trailMatches) throw new Broken('trail.jsonl does not match its SHA-256 in the manifest (its records still hold: bytes between them were changed)');

    const checkpointBytes = member(EXPORT_MEMBERS.checkpoints);
    if (sha256(checkpointBytes) !== listed.get(EXPORT_MEMBERS.checkpoints)) throw new Broken('checkpoints.jsonl does not match its SHA-256 in the manifest');
    const checkpoints = parseLines<Record<string, unknown>>(EXPORT_MEMBERS.checkpoints, checkpointBytes);
    for (const [index, checkpoint] of checkpoints.entries()) {
      const { signature, algorithm, ...content } = checkpoint;
      const at = `checkpoint ${String(content.checkpoint_at).slice(0, 40)} (checkpoints.jsonl line ${index + 1})`;
      if (algorithm !== MANIFEST_SIGNING_ALGORITHM || content.key_id !== description.key_id || typeof signature !== 'string') {
        throw new Broken(`${at} is not signed with ${MANIFEST_SIGNING_ALGORITHM} by key ${description.key_id}`);
      }
      if (!signatureHolds(publicKey, Buffer.from(canonicalJson(content as Json), 'utf8'), Buffer.from(signature, 'base64'))) throw new Broken(`${at}: its signature does not hold`);
      const linked = hashes.get(content.sequence as number);
      if (linked === undefined) throw new Broken(`${at} vouches for link #${String(content.sequence)}, which the file does not hold`);
      if (linked !== content.hash) throw new Broken(`${at} signed link #${String(content.sequence)} with another hash: the chain was rewritten`);
    }
    if (description.covered_to !== null && !checkpoints.some((checkpoint) => checkpoint.sequence === description.covered_to)) {
      throw new Broken(`export.json says checkpoint #${description.covered_to} covers the file, but checkpoints.jsonl does not hold it`);
    }
    if (description.records > 0 && description.covered_to === null) {
      notes.push(`no signed checkpoint covered record #${description.last_sequence} yet when exported: the records after the last checkpoint in the file are vouched for by the manifest's signature only`);
    }
    if (description.unlinked_in_period > 0) notes.push(`${description.unlinked_in_period} records of the period were not linked yet when exported and are not in the file`);
    const disposedNote = disposed === 0 ? '' : `, ${disposed} disposed of by retention (their links remain)`;
    return {
      whole: true,
      summary: `The export of the ${description.trail} trail of ${description.client} from ${description.from} to ${description.to} is whole: ${description.records} records (#${description.first_sequence} to #${description.last_sequence}, ${description.records_in_period} in the period${disposedNote}), ${checkpoints.length} signed checkpoints, manifest signed by ${description.key_id}`,
      notes,
    };
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    return { whole: false, summary: `The export is broken: ${error.message}`, notes };
  }
}
