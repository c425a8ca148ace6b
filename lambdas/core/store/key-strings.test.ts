import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTITY_MODELS } from './entity-models.ts';
import { TABLE_KEYS } from './table-definition.ts';

/**
 * Key strings are spelled only in the entity modules (lambdas/core/store/entities/) and key-parts.ts: anywhere else a
 * key is built by calling `keys.<entity>.<builder>`. The prefixes looked for are those the entity modules' own
 * examples write (every `WORD#` of every key they build), so a new entity's prefix is guarded without editing this.
 */
const LAMBDAS = new URL('../../', import.meta.url).pathname;
const ALLOWED = [join(LAMBDAS, 'core/store/entities/'), join(LAMBDAS, 'core/store/key-parts.ts')];

function keyValuesOfModels(): string[] {
  const attributes = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  return ENTITY_MODELS.flatMap((model) => [
    ...model.items.flatMap((shape) => {
      const item = shape.example();
      return attributes.map((attribute) => item[attribute]).filter((value): value is string => value !== undefined);
    }),
    ...model.accessPatterns.flatMap((pattern) => {
      const read = pattern.example();
      if ('pk' in read) return [read.pk, read.sk];
      return [read.partition, ...(read.sort !== undefined && 'beginsWith' in read.sort ? [read.sort.beginsWith] : [])];
    }),
  ]);
}

/** The upper-case words the entity modules put before a `#` (`C`, `PAYLOAD`, `OCC`, `CHECKPOINT`, …). */
function keyPrefixes(): string[] {
  const words = keyValuesOfModels().flatMap((value) => [...value.matchAll(/(?:^|#)([A-Z][A-Z_]*)(?=#)/g)].map((match) => match[1] as string));
  return [...new Set(words)].sort();
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The code without its comments (a comment may name a key's shape; only code builds one). */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Where a file spells `WORD#` as the start of a string or a template part, or `#WORD` ending one. */
function spelledKeys(source: string, prefixes: readonly string[]): string[] {
  const words = prefixes.join('|');
  const pattern = new RegExp(`(?:['"\`}]|#)(?:${words})#|#(?:${words})['"\`$]`, 'g');
  return [...withoutComments(source).matchAll(pattern)].map((match) => match[0]);
}

describe('key strings', () => {
  const prefixes = keyPrefixes();

  it('derives the prefixes from what the entity modules write', () => {
    expect(prefixes).toEqual(expect.arrayContaining(['C', 'PAYLOAD', 'AUDIT', 'CHECKPOINT', 'OCC', 'MIGRATION', 'TRANSFER', 'COMMENT']));
  });

  it('finds a spelled key, and not a comment naming one', () => {
    expect(spelledKeys("const range = { beginsWith: 'OCC#' };", prefixes)).toEqual(["'OCC#"]);
    expect(spelledKeys('const at = `${tenant}TRANSFER#${id}`;', prefixes)).toEqual(['}TRANSFER#']);
    expect(spelledKeys('const pk = `C#${client}#`;', prefixes)).toEqual(['`C#']);
    expect(spelledKeys('// sort keys `COMMENT#…` in the payload partition\n/** `OCC#<slot>` */', prefixes)).toEqual([]);
  });

  it('are spelled only in the entity modules and key-parts.ts', () => {
    const spelled = sourceFiles(LAMBDAS)
      .filter((path) => !ALLOWED.some((allowed) => path.startsWith(allowed)))
      .flatMap((path) => spelledKeys(readFileSync(path, 'utf8'), prefixes).map((literal) => `${relative(LAMBDAS, path)}: ${literal}`));
    expect(spelled).toEqual([]);
  });
});
