import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('lexicon engine portability', () => {
  it('imports no Node API and nothing outside its folder, since the portal bundles it', () => {
    const folder = new URL('./', import.meta.url);
    const sources = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(5);
    for (const name of sources) {
      const imports = [...readFileSync(new URL(name, folder), 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1] as string);
      expect(imports.filter((path) => !path.startsWith('./')), name).toEqual([]);
    }
  });
});
