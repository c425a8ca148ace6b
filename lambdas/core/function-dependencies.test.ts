import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { PortName } from './dependencies.ts';
import { composeDependencies, dependenciesWith, setDependencies } from './function-dependencies.ts';
import { blobStoreAdapter } from './adapters/wiring/blob-store.ts';
import { loadConfig } from './config.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const PORTS: readonly PortName[] = ['blobs', 'keys', 'identity', 'scheduler', 'jobs', 'scanner'];
/** The wiring module of each port (lambdas/core/adapters/wiring/). */
const WIRING: Record<string, PortName> = {
  'blob-store.ts': 'blobs',
  'key-service.ts': 'keys',
  'identity-directory.ts': 'identity',
  'scheduler.ts': 'scheduler',
  'job-runner.ts': 'jobs',
  'malware-scanner.ts': 'scanner',
};
const PORT_TYPES: Record<string, PortName> = {
  BlobStore: 'blobs',
  KeyService: 'keys',
  IdentityDirectory: 'identity',
  Scheduler: 'scheduler',
  JobRunner: 'jobs',
  MalwareScanner: 'scanner',
};

/** The ports a source file uses: `deps.blobs`, `Pick<Dependencies, 'blobs' | …>`, or a field typed with a port. */
function portsUsedBy(source: string): PortName[] {
  const used = new Set<PortName>();
  for (const match of source.matchAll(/\b(?:deps|dependencies)\.(\w+)\b/g)) if (PORTS.includes(match[1] as PortName)) used.add(match[1] as PortName);
  for (const match of source.matchAll(/Pick<Dependencies,([^>]*)>/g)) {
    for (const name of match[1]!.matchAll(/'(\w+)'/g)) if (PORTS.includes(name[1] as PortName)) used.add(name[1] as PortName);
  }
  for (const match of source.matchAll(/\b\w+\??:\s*(BlobStore|KeyService|IdentityDirectory|Scheduler|JobRunner|MalwareScanner)\b/g)) used.add(PORT_TYPES[match[1]!]!);
  return [...used];
}

/** For a Lambda entry: the ports its bundled domain code uses, and the ports its bundle wires adapters for. */
async function portsOf(entry: string): Promise<{ used: PortName[]; wired: PortName[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outdir: join(ROOT, '.port-check'),
    tsconfig: join(ROOT, 'tsconfig.json'),
    // As the functions are bundled (lib/constructs/lambda-bundling.ts): native addons (ssh2's optional ones) stay out.
    external: ['*.node'],
    logLevel: 'silent',
  });
  // What the bundle holds: the modules with code in its output. esbuild reads every module a public module re-exports
  // (metafile.inputs) but keeps only those in use, our own source being free of side effects (package.json).
  const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined);
  const inputs = Object.entries(output?.inputs ?? {})
    .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && !input.includes('node_modules'))
    .map(([input]) => input);
  const domain = inputs.filter((input) => input.startsWith('lambdas/') && !input.startsWith('lambdas/core/'));
  const used = new Set(domain.flatMap((input) => portsUsedBy(readFileSync(join(ROOT, input), 'utf8'))));
  const wired = new Set(
    inputs.flatMap((input) => {
      const wiring = /^lambdas\/core\/adapters\/wiring\/([\w-]+\.ts)$/.exec(input);
      return wiring && WIRING[wiring[1]!] ? [WIRING[wiring[1]!]!] : [];
    }),
  );
  return { used: PORTS.filter((port) => used.has(port)), wired: PORTS.filter((port) => wired.has(port)) };
}

const entries = readdirSync(join(ROOT, 'lambdas'))
  .filter((folder) => existsSync(join(ROOT, 'lambdas', folder, 'handler.ts')))
  .map((folder) => [folder, join(ROOT, 'lambdas', folder, 'handler.ts')] as const);

describe('each Lambda function is wired with the ports its code uses, and bundles no other adapter', () => {
  it('finds the functions', () => {
    expect(entries.map(([folder]) => folder)).toEqual(expect.arrayContaining(['devices', 'payloads', 'jobs', 'transfer-jobs', 'device-api']));
  });

  it.each(entries)('%s', async (_folder, entry) => {
    const { used, wired } = await portsOf(entry);
    expect(wired).toEqual(used);
  }, 60_000);
});

describe('function dependencies', () => {
  const config = () =>
    loadConfig({
      VERITY_MODE: 'aws',
      TABLE_NAME: 'verity',
      AWS_REGION: 'eu-west-2',
      RAW_BUCKET: 'verity-raw',
      PROCESSED_BUCKET: 'verity-processed',
      OIDC_ISSUER: 'http://127.0.0.1:1/oidc',
      OIDC_AUDIENCES: 'portal',
      CURSOR_SECRET: 'c'.repeat(32),
    });

  it('builds a wired port once, on first use, and refuses an unwired one by name', () => {
    const dependencies = composeDependencies(config(), [blobStoreAdapter]);
    expect(dependencies.blobs).toBe(dependencies.blobs);
    expect(() => dependencies.keys).toThrow(/not wired with the keys port/);
    expect(() => dependencies.scanner).toThrow(/not wired with the scanner port/);
  });

  it('gives every provider the dependencies set for the process', () => {
    const set = composeDependencies(config(), []);
    setDependencies(set);
    try {
      expect(dependenciesWith(blobStoreAdapter)()).toBe(set);
    } finally {
      setDependencies();
    }
  });
});
