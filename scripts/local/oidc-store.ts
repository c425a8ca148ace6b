import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A tiny oidc-provider adapter that keeps every artefact in one JSON file, so sessions, grants and refresh
 * tokens survive `npm start` restarts (the memory adapter forgets them). Writes are synchronous and whole-file:
 * fine for a handful of demo users, wrong for anything bigger, which is why production uses Cognito.
 */
interface Entry {
  payload: Record<string, unknown>;
  /** Epoch milliseconds, or null for no expiry. */
  expiresAt: number | null;
}

export function createFileStore(file: string) {
  let entries = new Map<string, Entry>();
  if (existsSync(file)) {
    try {
      entries = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>));
    } catch {
      // A corrupt store only logs users out; starting empty beats refusing to start.
      entries = new Map();
    }
  }

  function persist(): void {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt !== null && entry.expiresAt <= now) entries.delete(key);
    mkdirSync(dirname(file), { recursive: true });
    // Write then rename, so a crash mid-write never leaves half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(entries)));
    renameSync(`${file}.tmp`, file);
  }

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** The adapter class oidc-provider instantiates once per model name. */
  return class FileAdapter {
    readonly #model: string;

    constructor(model: string) {
      this.#model = model;
    }

    #key(id: string): string {
      return `${this.#model}:${id}`;
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      entries.set(this.#key(id), { payload, expiresAt: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null });
      persist();
    }

    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return live(this.#key(id))?.payload;
    }

    async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
      const prefix = `${this.#model}:`;
      for (const key of entries.keys()) {
        const entry = key.startsWith(prefix) ? live(key) : undefined;
        if (entry?.payload.uid === uid) return entry.payload;
      }
      return undefined;
    }

    async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
      const prefix = `${this.#model}:`;
      for (const key of entries.keys()) {
        const entry = key.startsWith(prefix) ? live(key) : undefined;
        if (entry?.payload.userCode === userCode) return entry.payload;
      }
      return undefined;
    }

    async consume(id: string): Promise<void> {
      const entry = live(this.#key(id));
      if (!entry) return;
      entry.payload.consumed = Math.floor(Date.now() / 1000);
      persist();
    }

    async destroy(id: string): Promise<void> {
      entries.delete(this.#key(id));
      persist();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key);
      persist();
    }
  };
}
