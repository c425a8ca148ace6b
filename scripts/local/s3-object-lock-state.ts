import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Object Lock state of the local S3 stand-in: what S3 keeps per object version (legal hold, retention) and the rules
 * it applies to changes and deletions. Pure rules here; the HTTP side is `s3-object-lock.ts`.
 */

export const LOCK_MODES = ['GOVERNANCE', 'COMPLIANCE'] as const;
export type LockMode = (typeof LOCK_MODES)[number];
export type LegalHoldStatus = 'ON' | 'OFF';

export interface Retention {
  mode: LockMode;
  /** ISO 8601 with milliseconds, as S3 answers it. */
  retainUntil: string;
}

/** What the stand-in knows of the one version s3rver keeps of a key. */
export interface ObjectLockState {
  key: string;
  versionId: string;
  legalHold?: LegalHoldStatus;
  retention?: Retention;
}

/** Version id of an object stored before the proxy knew it (S3 says `null` for a version made without versioning). */
export const NULL_VERSION = 'null';

export function newVersionId(): string {
  return randomBytes(24).toString('base64url');
}

export function isLockMode(value: string | undefined): value is LockMode {
  return (LOCK_MODES as readonly string[]).includes(value ?? '');
}

function retentionActive(retention: Retention | undefined, now: Date): retention is Retention {
  return retention !== undefined && Date.parse(retention.retainUntil) > now.getTime();
}

/** Whether the version is protected from deletion and overwrite at all (ignoring any bypass). */
export function isLocked(state: ObjectLockState | undefined, now: Date): boolean {
  return state !== undefined && (state.legalHold === 'ON' || retentionActive(state.retention, now));
}

/**
 * Why deleting this version is refused, or undefined when it may go. A legal hold refuses whatever the caller says;
 * COMPLIANCE refuses until it expires; GOVERNANCE gives way to `x-amz-bypass-governance-retention: true`.
 */
export function deleteRefusal(state: ObjectLockState | undefined, bypassGovernance: boolean, now: Date): string | undefined {
  if (state === undefined) return undefined;
  if (state.legalHold === 'ON') return 'The object version is under a legal hold';
  if (!retentionActive(state.retention, now)) return undefined;
  if (state.retention.mode === 'GOVERNANCE' && bypassGovernance) return undefined;
  return `The object version is retained in ${state.retention.mode} mode until ${state.retention.retainUntil}`;
}

/**
 * Why a retention change is refused, or undefined when allowed. Unexpired COMPLIANCE may only be extended in the same
 * mode. Unexpired GOVERNANCE may be extended freely; shortening, removing or changing its mode needs the bypass.
 */
export function retentionChangeRefusal(
  current: Retention | undefined,
  next: Retention | undefined,
  bypassGovernance: boolean,
  now: Date,
): string | undefined {
  if (!retentionActive(current, now)) return undefined;
  const extends_ = next !== undefined && next.mode === current.mode && Date.parse(next.retainUntil) >= Date.parse(current.retainUntil);
  if (extends_) return undefined;
  if (current.mode === 'GOVERNANCE' && bypassGovernance) return undefined;
  return current.mode === 'COMPLIANCE'
    ? 'COMPLIANCE retention can be neither shortened, removed nor changed to another mode'
    : 'GOVERNANCE retention can be shortened, removed or changed only with x-amz-bypass-governance-retention';
}

/** Lock state on disk, one small JSON file per object (`<bucket>/<sha256 of key>.json`), written atomically. */
export interface LockStore {
  get(bucket: string, key: string): Promise<ObjectLockState | undefined>;
  put(bucket: string, state: ObjectLockState): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
}

export function createLockStore(directory: string): LockStore {
  const fileOf = (bucket: string, key: string) => join(directory, bucket, `${createHash('sha256').update(key).digest('hex')}.json`);
  return {
    async get(bucket, key) {
      try {
        return JSON.parse(await readFile(fileOf(bucket, key), 'utf8')) as ObjectLockState;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async put(bucket, state) {
      const file = fileOf(bucket, state.key);
      await mkdir(join(directory, bucket), { recursive: true });
      const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
      await writeFile(partial, JSON.stringify(state));
      await rename(partial, file);
    },
    async remove(bucket, key) {
      await rm(fileOf(bucket, key), { force: true });
    },
  };
}

/** Runs work for one key at a time (a PUT's overwrite check and its state write cannot interleave with a DELETE). */
export function keySerializer() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(id) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    tails.set(id, tail);
    void tail.then(() => {
      if (tails.get(id) === tail) tails.delete(id);
    });
    return result;
  };
}
