import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Functions read the environment only through the validated configuration (./config.ts), whose declarations the
 * infrastructure test holds the CDK to (test/infra/env-wiring.test.ts). A `process.env` read anywhere else in
 * lambdas/ is a variable no declaration knows and no test sees deployed. Tests and test kits may set up processes.
 */
const LAMBDAS = join(import.meta.dirname, '..');
const CONFIG_MODULES = new Set(['core/config.ts']);
const isTestCode = (path: string) => /\.(test|testkit)\.tsx?$/.test(path) || path.startsWith('core/testing/');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Lines (1-based) where the code, not a comment or a string, reads `process.env`. */
export function processEnvReads(source: string): number[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source);
  const lines: number[] = [];
  const recent: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    recent.push(kind === ts.SyntaxKind.Identifier ? scanner.getTokenValue() : ts.SyntaxKind[kind]);
    if (recent.length > 3) recent.shift();
    const [object, dot, property] = recent;
    if (object === 'process' && (dot === 'DotToken' || dot === 'QuestionDotToken') && property === 'env') {
      lines.push(source.slice(0, scanner.getTokenStart()).split('\n').length);
    }
  }
  return lines;
}

describe('environment reads in lambdas/', () => {
  it('finds `process.env` in code, not in comments or strings', () => {
    expect(processEnvReads('const a = process.env.PORTAL_URL;\n// process.env.X\nconst b = "process.env";\nconst c = process?.env;')).toEqual([1, 4]);
  });

  it('reads the environment only in the config module', () => {
    const readers = sourceFiles(LAMBDAS)
      .map((file) => relative(LAMBDAS, file))
      .filter((path) => !CONFIG_MODULES.has(path) && !isTestCode(path))
      .flatMap((path) => processEnvReads(readFileSync(join(LAMBDAS, path), 'utf8')).map((line) => `lambdas/${path}:${line}`));
    expect(readers).toEqual([]);
  });
});
