import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stopChild, tailBuffer } from './processes.ts';
import { startObjectLockProxy } from './s3-object-lock.ts';

/** Origins allowed to PUT/GET objects through pre-signed URLs from the browser (the portal, the device simulator). */
const CORS_XML = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** An S3 object event as s3rver emits it (the S3 notification shape: `{ Records: [...] }`). */
export type S3Event = { Records: unknown[] };

export interface LocalS3 {
  endpoint: string;
  /** Registers a listener for object events (PUT, POST, COPY, DELETE). */
  onEvent(listener: (event: S3Event) => void): void;
  stop(): Promise<void>;
}

/**
 * Starts s3rver in a child process (see `s3rver-child.js` for why) with the given buckets. With `objectLock`, the
 * endpoint is the Object Lock proxy in front of it (`s3-object-lock.ts`), which those buckets are created with.
 */
export async function startS3(options: {
  directory: string;
  buckets: string[];
  objectLock?: { buckets: string[]; stateDirectory: string };
}): Promise<LocalS3> {
  mkdirSync(options.directory, { recursive: true });
  const script = fileURLToPath(new URL('./s3rver-child.js', import.meta.url));
  const output = tailBuffer();
  const child = fork(script, [JSON.stringify({ directory: options.directory, buckets: options.buckets, corsXml: CORS_XML })], {
    env: { ...process.env, NODE_OPTIONS: '--openssl-legacy-provider' },
    // Plain node for the child, whatever loader (tsx, vitest) runs the parent.
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.on('data', output.push);
  child.stderr?.on('data', output.push);
  const listeners: Array<(event: S3Event) => void> = [];

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start within 15 s.\n${output.read()}`)), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with code ${code} before it was ready.\n${output.read()}`));
    });
    child.on('message', (message: { type?: string; port?: number; event?: S3Event }) => {
      if (message.type === 'ready' && typeof message.port === 'number') {
        clearTimeout(timer);
        resolve(message.port);
      } else if (message.type === 'event' && message.event) {
        for (const listener of listeners) listener(message.event);
      }
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });

  const s3rverEndpoint = `http://127.0.0.1:${port}`;
  const proxy = options.objectLock
    ? await startObjectLockProxy({
        upstream: s3rverEndpoint,
        stateDirectory: options.objectLock.stateDirectory,
        lockedBuckets: options.objectLock.buckets,
      }).catch(async (error: unknown) => {
        await stopChild(child);
        throw error;
      })
    : undefined;

  return {
    endpoint: proxy?.endpoint ?? s3rverEndpoint,
    onEvent: (listener) => listeners.push(listener),
    stop: async () => {
      await proxy?.stop();
      await stopChild(child);
    },
  };
}
