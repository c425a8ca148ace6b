import { describe, expect, it } from 'vitest';
import { CHUNK_RELOAD_GUARD_MS, claimChunkReload, isChunkLoadError, type ReloadStorage } from './chunk-reload.ts';

function memoryStorage(initial?: string): ReloadStorage & { value: string | null } {
  return {
    value: initial ?? null,
    getItem() {
      return this.value;
    },
    setItem(_key, value) {
      this.value = value;
    },
  };
}

describe('isChunkLoadError', () => {
  it('recognises the browsers\u2019 dynamic import failures and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Request failed'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});

describe('claimChunkReload', () => {
  it('reloads once per path, then not again within the guard', () => {
    const storage = memoryStorage();
    expect(claimChunkReload('/devices', 1_000, storage)).toBe(true);
    expect(claimChunkReload('/devices', 1_000 + CHUNK_RELOAD_GUARD_MS - 1, storage)).toBe(false);
    expect(claimChunkReload('/alerts', 2_000, storage)).toBe(true);
    expect(claimChunkReload('/devices', 1_000 + CHUNK_RELOAD_GUARD_MS, storage)).toBe(true);
  });

  it('forgets paths whose guard has passed', () => {
    const storage = memoryStorage();
    claimChunkReload('/a', 0, storage);
    claimChunkReload('/b', CHUNK_RELOAD_GUARD_MS * 2, storage);
    expect(Object.keys(JSON.parse(storage.value ?? '{}') as object)).toEqual(['/b']);
  });

  it.each(['not json', '[1,2]', '{"/devices":"soon"}', 'null'])('survives a corrupt record (%s)', (stored) => {
    const storage = memoryStorage(stored);
    expect(claimChunkReload('/devices', 5_000, storage)).toBe(true);
    expect(claimChunkReload('/devices', 5_001, storage)).toBe(false);
  });

  it('does not reload when the attempt cannot be recorded (no loop without a guard)', () => {
    const storage: ReloadStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(claimChunkReload('/devices', 0, storage)).toBe(false);
  });

  it('treats a path named like an object property as an ordinary path', () => {
    const storage = memoryStorage();
    expect(claimChunkReload('__proto__', 0, storage)).toBe(true);
    expect(claimChunkReload('__proto__', 1, storage)).toBe(false);
    expect(claimChunkReload('constructor', 1, storage)).toBe(true);
  });
});
