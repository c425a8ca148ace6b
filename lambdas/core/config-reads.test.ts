import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Functions read the environment only through the validated configuration (./config.ts), whose declarations the
 * infrastructure test holds the CDK to (test/infra/env-wiring.test.ts). A `process.env` read anywhere else in
 * lambdas/ is a variable no declaration knows and no test sees deployed. Tests and test kits may set up processes.
 * Likewise AWS clients are built only by the adapters (lambdas/core/adapters), which pick AWS or the local stand-ins
 * from that configuration.
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

/**
 * Where code outside the adapters gets hold of an AWS client (lines, 1-based): a value import of an SDK client class
 * (`@aws-sdk/…` `*Client`, statically or by `import()`) or a `new …Client(`. Commands sent through a client handed in
 * are not building one, and a type is not a client.
 */
export function awsClientBuilds(source: string): number[] {
  // Parsed only when it could build one: a full parse of every module is slow.
  if (!source.includes('@aws-sdk/') && !/Client\(/.test(source)) return [];
  const file = ts.createSourceFile('source.ts', source, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const isClient = (name: string) => /Client$/.test(name);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('@aws-sdk/')) {
      const clause = node.importClause;
      const named = clause?.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
      const classes = named.filter((element) => !element.isTypeOnly && isClient((element.propertyName ?? element.name).text));
      if (clause !== undefined && !clause.isTypeOnly && (classes.length > 0 || clause.name !== undefined || (clause.namedBindings !== undefined && ts.isNamespaceImport(clause.namedBindings)))) lines.add(lineOf(node));
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier !== undefined && ts.isStringLiteral(specifier) && specifier.text.startsWith('@aws-sdk/client-')) lines.add(lineOf(node));
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && isClient(node.expression.text)) lines.add(lineOf(node));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...lines].sort((a, b) => a - b);
}

const isAdapter = (path: string) => path.startsWith('core/adapters/');

describe('AWS clients in lambdas/', () => {
  it('finds a client class imported or built, not commands or types', () => {
    const source = [
      "import { S3Client } from '@aws-sdk/client-s3';",
      "import { AssumeRoleCommand, type STSClient } from '@aws-sdk/client-sts';",
      "import type { KMSClient } from '@aws-sdk/client-kms';",
      'const s3 = new S3Client({});',
      "const kms = await import('@aws-sdk/client-kms');",
      'const sts = new AssumeRoleCommand({});',
    ].join('\n');
    expect(awsClientBuilds(source)).toEqual([1, 4, 5]);
  });

  it('builds AWS clients only in the adapters (lambdas/core/adapters)', () => {
    const builders = sourceFiles(LAMBDAS)
      .map((file) => relative(LAMBDAS, file))
      .filter((path) => !isAdapter(path) && !isTestCode(path))
      .flatMap((path) => awsClientBuilds(readFileSync(join(LAMBDAS, path), 'utf8')).map((line) => `lambdas/${path}:${line}`));
    expect(builders).toEqual([]);
  }, 30_000);
});

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
