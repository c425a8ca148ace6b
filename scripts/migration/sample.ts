import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CRAFTED_PLATFORM, craftedExport, sampleExportLines } from './sample-rows.ts';

const USAGE = `Usage: npm run migration:sample -- <path> [--rows N] [--media-bytes N] [--crafted]

Writes a deterministic legacy export (docs/migration-format.md) to <path>, streamed to disk in constant memory.
  --rows N         rows after the header (default 1000): groups, device users, devices, then recordings
  --media-bytes N  bytes of each recording's media (default 1024)
  --crafted        instead, the crafted export that reaches every result type of the catalogue (see below)

The crafted export expects the tenant to hold, managed on Verity itself, the group '${CRAFTED_PLATFORM.group}',
the onboarded device user '${CRAFTED_PLATFORM.deviceUser}' and the activated device '${CRAFTED_PLATFORM.device}'.
Import it with every migration switch off, then again with every switch on.`;

/** Writes lines to a file, waiting for the disk whenever the stream's buffer is full. */
async function writeLines(path: string, lines: Iterable<string>): Promise<{ rows: number; bytes: number }> {
  const out = createWriteStream(path);
  let rows = 0;
  for (const text of lines) {
    rows += 1;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { rows: rows - 1, bytes: out.bytesWritten };
}

export async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { rows: { type: 'string' }, 'media-bytes': { type: 'string' }, crafted: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const path = positionals[0];
  if (values.help === true || path === undefined) {
    console.log(USAGE);
    if (path === undefined && values.help !== true) process.exitCode = 2;
    return;
  }
  const positive = (text: string | undefined, fallback: number, name: string) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a whole number of at least 1`);
    return value;
  };
  const lines = values.crafted === true
    ? craftedExport().map((entry) => entry.line)
    : sampleExportLines({ rows: positive(values.rows, 1000, 'rows'), mediaBytes: positive(values['media-bytes'], 1024, 'media-bytes') });
  const written = await writeLines(resolve(path), lines);
  console.log(`Wrote ${written.rows} rows (${written.bytes} bytes) to ${resolve(path)}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
