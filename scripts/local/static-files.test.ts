import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveStaticPath } from './static-files.ts';

const base = mkdtempSync(join(tmpdir(), 'verity-static-'));
const root = join(base, 'dist');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<html>');
writeFileSync(join(root, 'assets', 'app.js'), '');
writeFileSync(join(base, 'secret.txt'), 'secret');
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveStaticPath', () => {
  it('finds files inside the root', () => {
    expect(resolveStaticPath(root, '/assets/app.js')).toBe(join(root, 'assets', 'app.js'));
    expect(resolveStaticPath(root, '/index.html')).toBe(join(root, 'index.html'));
  });

  it('answers undefined for directories and missing files (the SPA fallback decides)', () => {
    expect(resolveStaticPath(root, '/')).toBeUndefined();
    expect(resolveStaticPath(root, '/assets')).toBeUndefined();
    expect(resolveStaticPath(root, '/dashboard/devices')).toBeUndefined();
  });

  it('never escapes the root, however the path is spelt', () => {
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/../../secret.txt', '/..\\secret.txt', '/%00index.html', '/%E0%A4%A']) {
      expect(resolveStaticPath(root, path), path).toBeUndefined();
    }
  });
});
