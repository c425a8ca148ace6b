import { Worker } from 'node:worker_threads';
import type { PlaintextHasher } from './plaintext-hasher.ts';

/**
 * SHA-256 on a worker thread, so that a payload's decryption (AES-256-GCM, this thread) and its checksum (SHA-256)
 * use two cores at once: one thread doing both is held to about a quarter of openssl's cipher speed, and SHA-256 of
 * a single stream cannot itself be split.
 *
 * Each job owns a ring of SLOTS shared-memory slots of SLOT_BYTES. `update` copies the plaintext parts into the ring
 * (a memory copy costs a fraction of the hash) and gives the same parts straight back, so the stream passes them on at
 * once and allocates nothing more than it does hashing inline; a full slot goes to the worker as a message naming it,
 * and the worker names it back once hashed. When every slot is away, `update` waits for the oldest: memory stays
 * flat (the ring) whatever the payload's size. (Transferring the decrypted buffers to the worker and back instead was
 * no faster, and the consumer had to wait for each buffer's round trip.)
 *
 * The worker's program is a constant string run with `eval`: it has no imports of ours, so it works the same from
 * source (tsx, vitest) and from an esbuild bundle, which would otherwise need a second entry file for the worker.
 */
const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const jobs = new Map();
parentPort.on('message', (message) => {
  const { id, op } = message;
  try {
    if (op === 'start') {
      jobs.set(id, { hash: createHash('sha256'), ring: message.ring });
    } else if (op === 'slot') {
      const job = jobs.get(id);
      if (job === undefined) throw new Error('unknown job');
      job.hash.update(new Uint8Array(job.ring, message.offset, message.length));
      parentPort.postMessage({ id, op: 'hashed', slot: message.slot });
    } else if (op === 'end') {
      const job = jobs.get(id);
      if (job === undefined) throw new Error('unknown job');
      jobs.delete(id);
      parentPort.postMessage({ id, op: 'digest', digest: job.hash.digest('hex') });
    } else if (op === 'abort') {
      jobs.delete(id);
    }
  } catch (error) {
    jobs.delete(id);
    parentPort.postMessage({ id, op: 'error', message: String((error && error.message) || error) });
  }
});
`;

/** Bytes per message: large enough that messaging costs little. */
const SLOT_BYTES = 1024 * 1024;
/** Slots per job: a few, so the copy and the hash overlap; the ring is the job's whole extra memory. */
const SLOTS = 4;

/** The worker failed or exited while hashing: the stream fails (processing retries), it never hangs. */
export class HashWorkerError extends Error {
  override readonly name = 'HashWorkerError';
}

type WorkerMessage =
  | { id: number; op: 'hashed'; slot: number }
  | { id: number; op: 'digest'; digest: string }
  | { id: number; op: 'error'; message: string };

class WorkerJob implements PlaintextHasher {
  private readonly ring = new SharedArrayBuffer(SLOT_BYTES * SLOTS);
  private readonly view = new Uint8Array(this.ring);
  /** Slots not at the worker, the one being filled first. */
  private readonly free: number[] = Array.from({ length: SLOTS }, (_, slot) => slot);
  /** Bytes already copied into the slot being filled (`free[0]`). */
  private filled = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private digest: string | undefined;
  private done = false;

  constructor(
    private readonly pool: HashWorkerPool,
    readonly id: number,
  ) {
    pool.post({ id, op: 'start', ring: this.ring });
  }

  async update(parts: Buffer[]): Promise<Buffer[]> {
    for (const part of parts) {
      for (let at = 0; at < part.length; ) {
        while (this.free.length === 0) await this.next();
        this.check();
        const slot = this.free[0] as number;
        const take = Math.min(part.length - at, SLOT_BYTES - this.filled);
        this.view.set(part.subarray(at, at + take), slot * SLOT_BYTES + this.filled);
        this.filled += take;
        at += take;
        if (this.filled === SLOT_BYTES) this.send();
      }
    }
    this.check();
    // The bytes are in the ring: the caller may pass the parts on at once.
    return parts;
  }

  async finish(): Promise<{ parts: Buffer[]; digest: string }> {
    this.check();
    if (this.filled > 0) this.send();
    this.pool.post({ id: this.id, op: 'end' });
    // The worker answers in order, so the digest comes after every slot is hashed.
    while (this.digest === undefined) await this.next();
    this.close();
    return { parts: [], digest: this.digest };
  }

  abort(): void {
    if (this.done) return;
    this.close();
    this.pool.post({ id: this.id, op: 'abort' });
  }

  /** From the pool: the worker's answer for this job. */
  receive(message: WorkerMessage): void {
    if (message.op === 'hashed') {
      this.free.push(message.slot);
    } else if (message.op === 'digest') {
      this.digest = message.digest;
    } else {
      this.failure = new HashWorkerError(`SHA-256 worker: ${message.message}`);
      this.close();
    }
    this.notify();
  }

  /** From the pool: the worker is gone. */
  fail(error: Error): void {
    this.failure ??= error;
    this.done = true;
    this.notify();
  }

  private send(): void {
    const slot = this.free.shift() as number;
    this.pool.post({ id: this.id, op: 'slot', slot, offset: slot * SLOT_BYTES, length: this.filled });
    this.filled = 0;
  }

  private next(): Promise<void> {
    this.check();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.done) throw new HashWorkerError('SHA-256 worker: the job is closed');
  }

  private close(): void {
    this.done = true;
    this.pool.release(this.id);
  }
}

/**
 * One worker thread serving any number of hash jobs (each stream is one job, by id). It starts on first use, is
 * unreferenced while idle (it never keeps a process alive), and after a crash the next job starts a new one.
 */
export class HashWorkerPool {
  private worker: Worker | undefined;
  private readonly jobs = new Map<number, WorkerJob>();
  private nextId = 1;

  /** A hasher for one stream. */
  hasher(): PlaintextHasher {
    // The worker first: the job's first message (its ring) goes out as it is made.
    this.start().ref();
    const job = new WorkerJob(this, this.nextId++);
    this.jobs.set(job.id, job);
    return job;
  }

  /** Stops the worker; running jobs fail with HashWorkerError. */
  async terminate(): Promise<void> {
    await this.worker?.terminate();
  }

  /** @internal */
  post(message: { id: number; op: string; [field: string]: unknown }): void {
    this.worker?.postMessage(message);
  }

  /** @internal A job ended: forget it, and let the process exit if no other job runs. */
  release(id: number): void {
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.worker?.unref();
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (message: WorkerMessage) => this.jobs.get(message.id)?.receive(message));
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const error = new HashWorkerError(`SHA-256 worker ${why}`);
      for (const job of this.jobs.values()) job.fail(error);
      this.jobs.clear();
    };
    worker.on('error', (error) => lost(`failed: ${error.message}`));
    worker.on('exit', (code) => lost(`exited (code ${code})`));
    this.worker = worker;
    return worker;
  }
}

/** The process's pool (a Lambda container keeps its worker between invocations). */
export const sharedHashWorker = new HashWorkerPool();
