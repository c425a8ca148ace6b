import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';

/** What a running local stack tells other commands on this machine (`npm run job`): where it is and its handlers' environment. */
export const RunningStack = z.object({
  pid: z.int(),
  apiUrl: z.string(),
  env: z.record(z.string(), z.string()),
});
export type RunningStack = z.infer<typeof RunningStack>;

/** `<dataDir>/stack.json`: written once the stack is up, removed when it stops (readable by this user only: it holds the cursor secret). */
export function runningStackFile(dataDir: string): string {
  return join(dataDir, 'stack.json');
}

export function writeRunningStack(dataDir: string, stack: RunningStack): () => Promise<void> {
  const file = runningStackFile(dataDir);
  writeFileSync(file, `${JSON.stringify(stack, null, 2)}\n`, { mode: 0o600 });
  return async () => rmSync(file, { force: true });
}

/**
 * The stack running on `dataDir`, or why there is none: no file (never started, or stopped), a file left by a stack
 * that was killed (its process is gone), or a stack that does not answer its health check.
 */
export async function findRunningStack(dataDir: string): Promise<{ stack: RunningStack } | { problem: string }> {
  const file = runningStackFile(dataDir);
  const notRunning = `The local stack is not running on ${dataDir}`;
  if (!existsSync(file)) return { problem: `${notRunning} (no ${file}). Start it with npm start.` };
  const parsed = RunningStack.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) return { problem: `${file} is not a running stack's description; restart it with npm start.` };
  const stack = parsed.data;
  try {
    process.kill(stack.pid, 0);
  } catch {
    return { problem: `${notRunning}: process ${stack.pid} that wrote ${file} is gone. Start it with npm start.` };
  }
  const healthy = await fetch(`${stack.apiUrl}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
    (response) => response.ok,
    () => false,
  );
  if (!healthy) return { problem: `${notRunning}: ${stack.apiUrl}/healthz does not answer healthy. Is it still starting?` };
  return { stack };
}
