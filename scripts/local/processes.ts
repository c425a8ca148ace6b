import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Asks the OS for a free loopback port. Used for stand-ins (DynamoDB Local) that cannot bind port 0 themselves. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it answers true, the child exits, or `timeoutMs` passes. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  options: { timeoutMs: number; child?: ChildProcess; output?: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (options.child && options.child.exitCode !== null) {
      throw new Error(`${what} exited with code ${options.child.exitCode} before it was ready.\n${options.output?.() ?? ''}`);
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not become ready within ${options.timeoutMs} ms.\n${options.output?.() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stops a child: SIGTERM, then SIGKILL if it has not exited after `graceMs`. Resolves once it has exited,
 * so callers can rely on no orphan being left behind.
 */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Keeps the last few KB of a child's output, for error messages when it fails to start. */
export function tailBuffer(limit = 4000) {
  let text = '';
  return {
    push(chunk: Buffer | string) {
      text = (text + chunk.toString()).slice(-limit);
    },
    read: () => text,
  };
}
