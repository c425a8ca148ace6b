import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLambdaJobRunner } from './lambda-job-runner.ts';

const credentials = { accessKeyId: 'AKIDJOBRUNNERTEST', secretAccessKey: 'job-runner-secret', sessionToken: 'job-runner-session' };

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the stand-in for Lambda's API answers next, in order; then 202. */
let answers: { status: number; headers?: Record<string, string>; body?: string }[] = [];
let received: Received[] = [];
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 202 };
      response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answers = [];
  received = [];
});

const runner = (maxAttempts = 3) =>
  createLambdaJobRunner({ functionName: 'verity-prod-jobs', region: 'eu-west-2', endpoint, credentials, maxAttempts, backoffMs: 1 });

/** Lambda's check: the same request, signed again with the caller's key at the time it claims, gives its Authorization. */
async function expectValidSignature(request: Received): Promise<void> {
  const amzDate = String(request.headers['x-amz-date']);
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`);
  const signedNames = /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))?.[1]?.split(';') ?? [];
  const headers = Object.fromEntries(signedNames.map((name) => [name, String(request.headers[name])]));
  const url = new URL(request.url, endpoint);
  const signer = new SignatureV4({ credentials, region: 'eu-west-2', service: 'lambda', sha256: Sha256 });
  const again = await signer.sign(
    new HttpRequest({ method: request.method, protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: url.pathname, headers, body: request.body }),
    { signingDate },
  );
  expect(request.headers.authorization).toBe(again.headers.authorization);
  expect(request.headers.authorization).toContain('/eu-west-2/lambda/aws4_request');
}

describe('Lambda job runner', () => {
  it('invokes the jobs function asynchronously with the job event a schedule would send, signed for Lambda', async () => {
    await runner().start('payload-processing', { client: 'acme', payload_reference: '01J0000000000000000000REF1' });
    expect(received).toHaveLength(1);
    const [request] = received as [Received];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/2015-03-31/functions/verity-prod-jobs/invocations');
    expect(request.headers['x-amz-invocation-type']).toBe('Event');
    expect(request.headers['x-amz-security-token']).toBe('job-runner-session');
    expect(JSON.parse(request.body)).toEqual({ job: 'payload-processing', input: { client: 'acme', payload_reference: '01J0000000000000000000REF1' } });
    await expectValidSignature(request);
  });

  it('fails when Lambda answers without accepting the event', async () => {
    answers = [{ status: 200, body: 'null' }];
    await expect(runner().start('payload-processing', {})).rejects.toThrow('did not accept job payload-processing (status 200)');
    expect(received).toHaveLength(1);
  });

  it('fails with the error Lambda names when it refuses the call, without retrying a refusal', async () => {
    answers = [{ status: 404, headers: { 'x-amzn-errortype': 'ResourceNotFoundException:http://internal' }, body: '{"Message":"Function not found: verity-prod-jobs"}' }];
    const failure = runner().start('payload-processing', {});
    await expect(failure).rejects.toMatchObject({ name: 'ResourceNotFoundException', message: 'Function not found: verity-prod-jobs', status: 404 });
    expect(received).toHaveLength(1);
  });

  it('retries a throttled or failing Lambda API, so a busy moment loses no job', async () => {
    answers = [
      { status: 429, headers: { 'x-amzn-errortype': 'TooManyRequestsException' }, body: '{"message":"Rate exceeded"}' },
      { status: 503, body: 'Service unavailable' },
    ];
    await runner().start('retention', { client: 'acme' });
    expect(received).toHaveLength(3);
    expect(new Set(received.map((request) => request.body))).toEqual(new Set([JSON.stringify({ job: 'retention', input: { client: 'acme' } })]));
  });

  it('gives up after its attempts, with the last refusal', async () => {
    const throttled = { status: 429, headers: { 'x-amzn-errortype': 'TooManyRequestsException' }, body: '{"message":"Rate exceeded"}' };
    answers = [throttled, throttled];
    await expect(runner(2).start('retention', {})).rejects.toMatchObject({ name: 'TooManyRequestsException', message: 'Rate exceeded' });
    expect(received).toHaveLength(2);
  });

  it('retries when Lambda cannot be reached, then says so', async () => {
    const unreachable = createLambdaJobRunner({ functionName: 'jobs', region: 'eu-west-2', endpoint: 'http://127.0.0.1:1', credentials, maxAttempts: 2, backoffMs: 1 });
    await expect(unreachable.start('retention', {})).rejects.toThrow(TypeError);
  });
});
