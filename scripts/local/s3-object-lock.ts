import { createHash, randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { STAND_IN_CREDENTIALS } from '../../lambdas/core/adapters/wiring/stand-in-credentials.ts';
import { LOCAL_CREDENTIALS } from './dynamodb.ts';
import {
  NULL_VERSION,
  createLockStore,
  deleteRefusal,
  isLockMode,
  isLocked,
  keySerializer,
  newVersionId,
  retentionChangeRefusal,
  type LegalHoldStatus,
  type ObjectLockState,
  type Retention,
} from './s3-object-lock-state.ts';
import { presignedBindingRefusal, sha256Verifier, type UploadRefusal } from './s3-upload-binding.ts';

/**
 * S3 Object Lock in front of s3rver, which has none: a small HTTP proxy on loopback that answers the `?legal-hold`
 * and `?retention` sub-resources, honours `x-amz-object-lock-*` on PutObject, refuses DeleteObject (and DeleteObjects
 * entries, and overwrites) of a locked object, and forwards everything else to s3rver byte for byte, streaming.
 *
 * s3rver keeps one version per key, so the proxy gives each write a version id and accepts that id (or `null` for
 * objects written before it knew them). Where S3 would keep a locked version and add a delete marker or a newer
 * version, the stand-in cannot keep it, so it refuses: a DELETE without a version id and an overwrite of a locked
 * object answer 403 AccessDenied rather than lose protected data.
 */

export interface ObjectLockProxyOptions {
  /** s3rver's origin (`http://127.0.0.1:<port>`). */
  upstream: string;
  /** Where lock state is kept (survives restarts). */
  stateDirectory: string;
  /** Buckets created with Object Lock enabled; the others answer as S3 does for a bucket without it. */
  lockedBuckets: string[];
  /**
   * Secrets by access key id, to check the signature of pre-signed uploads bound to a size or hash (S3 would refuse
   * one whose headers are not those signed). Default: the local stack's and the functions' stand-in credentials.
   */
  signingSecrets?: Readonly<Record<string, string>>;
  now?: () => Date;
}

export interface ObjectLockProxy {
  endpoint: string;
  stop(): Promise<void>;
}

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
/** Largest legal-hold, retention or DeleteObjects body read (S3 allows 1,000 keys in a DeleteObjects request). */
const MAX_XML_BODY = 2 * 1024 * 1024;
/**
 * Query parameters that name no sub-resource: a request carrying only these is about the object itself (the SDK's
 * `x-id`, a version, a pre-signed URL's `X-Amz-*` signature, GetObject's `response-*` header overrides).
 */
const isPlainQuery = (name: string) => name === 'x-id' || name === 'versionId' || /^x-amz-/i.test(name) || name.startsWith('response-');

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
const refusedUpload = (refusal: UploadRefusal) => new S3Failure(refusal.status, refusal.code, refusal.message);
const accessDenied = (why: string) => new S3Failure(403, 'AccessDenied', `Access Denied (${why})`);
const noLockConfiguration = () => new S3Failure(400, 'InvalidRequest', 'Bucket is missing Object Lock Configuration');

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
function unescapeXml(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
/** The text of the first `<name>…</name>` in a small, flat XML document. */
function xmlValue(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  return match ? unescapeXml(match[1] as string).trim() : undefined;
}

function sendXml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}
function sendError(res: ServerResponse, failure: S3Failure, resource: string): void {
  const requestId = randomUUID();
  sendXml(
    res,
    failure.status,
    `<Error><Code>${failure.code}</Code><Message>${escapeXml(failure.message)}</Message><Resource>${escapeXml(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`,
    { 'x-amz-request-id': requestId },
  );
}

/**
 * A request's path and query as sent, not normalised (`new URL` would fold `a/../b`, a legal S3 key, into `b`), so
 * what is forwarded names the object the caller named.
 */
interface RequestTarget {
  path: string;
  search: string;
  query: URLSearchParams;
}
function requestTargetOf(raw: string): RequestTarget {
  const mark = raw.indexOf('?');
  const search = mark < 0 ? '' : raw.slice(mark + 1);
  return { path: mark < 0 ? raw : raw.slice(0, mark), search, query: new URLSearchParams(search) };
}

/**
 * The object key of a request path. s3rver stores a key at the `path.join` of its segments, so a `.` or `..` segment
 * or an empty one inside the key would name another key's file (even another bucket's: `../verity-processed/x`),
 * past any lock on it. S3 takes such keys; the stand-in cannot keep them apart, so it refuses them.
 */
function decodedKey(encoded: string): string {
  let key: string;
  try {
    key = decodeURIComponent(encoded);
  } catch {
    throw new S3Failure(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
  const segments = key.split('/');
  if (segments.some((segment, index) => segment === '.' || segment === '..' || (segment === '' && index < segments.length - 1))) {
    throw new S3Failure(400, 'InvalidArgument', 'The local S3 stand-in cannot store a key with ".", ".." or empty path segments');
  }
  return key;
}

async function readSmallBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_XML_BODY) throw new S3Failure(400, 'MalformedXML', 'The XML you provided was too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function retentionXml(retention: Retention): string {
  return `<Retention xmlns="${XMLNS}"><Mode>${retention.mode}</Mode><RetainUntilDate>${retention.retainUntil}</RetainUntilDate></Retention>`;
}

/** A retain-until date as S3 stores it, refused unless it lies in the future. */
function futureDate(text: string | undefined, now: Date): string {
  const time = text === undefined ? Number.NaN : Date.parse(text);
  if (Number.isNaN(time)) throw new S3Failure(400, 'InvalidArgument', 'The retain until date is not a valid date');
  if (time <= now.getTime()) throw new S3Failure(400, 'InvalidArgument', 'The retain until date must be in the future!');
  return new Date(time).toISOString();
}

/** Lock settings sent with a PutObject (or CopyObject, CompleteMultipartUpload) as `x-amz-object-lock-*` headers. */
function lockHeadersOf(headers: IncomingHttpHeaders, now: Date): { legalHold?: LegalHoldStatus; retention?: Retention } | undefined {
  const mode = headers['x-amz-object-lock-mode'] as string | undefined;
  const until = headers['x-amz-object-lock-retain-until-date'] as string | undefined;
  const hold = headers['x-amz-object-lock-legal-hold'] as string | undefined;
  if (mode === undefined && until === undefined && hold === undefined) return undefined;
  if ((mode === undefined) !== (until === undefined)) {
    throw new S3Failure(400, 'InvalidArgument', 'x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both be supplied');
  }
  if (mode !== undefined && !isLockMode(mode)) throw new S3Failure(400, 'InvalidArgument', 'Unknown wormMode directive.');
  if (hold !== undefined && hold !== 'ON' && hold !== 'OFF') throw new S3Failure(400, 'InvalidArgument', "Legal Hold must be either of 'ON' or 'OFF'");
  return {
    ...(hold !== undefined ? { legalHold: hold } : {}),
    ...(isLockMode(mode) ? { retention: { mode, retainUntil: futureDate(until, now) } } : {}),
  };
}

/** The lock headers S3 adds to GetObject and HeadObject answers. */
function lockResponseHeaders(state: ObjectLockState): string[] {
  const headers = ['x-amz-version-id', state.versionId];
  if (state.retention) headers.push('x-amz-object-lock-mode', state.retention.mode, 'x-amz-object-lock-retain-until-date', state.retention.retainUntil);
  if (state.legalHold) headers.push('x-amz-object-lock-legal-hold', state.legalHold);
  return headers;
}

export async function startObjectLockProxy(options: ObjectLockProxyOptions): Promise<ObjectLockProxy> {
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true });
  const store = createLockStore(options.stateDirectory);
  const serialize = keySerializer();
  const locked = new Set(options.lockedBuckets);
  const now = options.now ?? (() => new Date());
  const signingSecrets = options.signingSecrets ?? {
    [LOCAL_CREDENTIALS.accessKeyId]: LOCAL_CREDENTIALS.secretAccessKey,
    [STAND_IN_CREDENTIALS.accessKeyId]: STAND_IN_CREDENTIALS.secretAccessKey,
  };

  /** Sends a request to s3rver; the answer is streamed back by the caller. */
  const forward = (req: IncomingMessage, path: string, headers: IncomingHttpHeaders, body?: Buffer | 'stream' | Transform) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      // `Expect: 100-continue` was answered by this server already; s3rver gets the body straight away.
      const { expect: _expect, ...rest } = headers;
      const upstreamRequest = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: rest, agent }, resolve);
      // A checked body's refusal is the answer, not the aborted upstream request's "socket hang up" that follows it.
      let refusal: Error | undefined;
      if (body !== undefined && body !== 'stream' && !Buffer.isBuffer(body)) body.once('error', (error: Error) => (refusal = error));
      upstreamRequest.once('error', (error) => reject(refusal ?? error));
      if (body === 'stream') {
        // A client that aborts mid-body aborts the upstream PUT too, so s3rver keeps nothing of it.
        pipeline(req, upstreamRequest).catch((error: unknown) => upstreamRequest.destroy(error as Error));
      } else if (body !== undefined && !Buffer.isBuffer(body)) {
        // A body checked on its way (an upload's declared SHA-256): its refusal aborts the upstream PUT, and answers.
        pipeline(req, body, upstreamRequest).catch((error: unknown) => upstreamRequest.destroy(error as Error));
      } else {
        upstreamRequest.end(body);
      }
    });

  /** Relays s3rver's answer, with extra headers, streaming the body. */
  const relay = async (res: ServerResponse, answer: IncomingMessage, extraHeaders: string[] = []) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, [...answer.rawHeaders, ...extraHeaders]);
    await pipeline(answer, res);
  };

  /** Whether s3rver holds the key (HEAD with the caller's headers, less those of its body: s3rver parses the signature). */
  const objectExists = async (req: IncomingMessage, objectPath: string) => {
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!/^(content-|x-amz-checksum-|x-amz-sdk-checksum|transfer-encoding|expect)/.test(name)) headers[name] = value;
    }
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest({ host: upstream.hostname, port: upstream.port, method: 'HEAD', path: objectPath, headers, agent }, resolve)
        .once('error', reject)
        .end();
    });
    answer.resume();
    const status = answer.statusCode ?? 500;
    if (status === 404) return false;
    if (status < 300) return true;
    throw new Error(`s3rver answered HEAD ${objectPath} with ${status}`);
  };

  /** The state of the version a request names (its `versionId`, or the current one); 404 for another version. */
  const versionState = async (bucket: string, key: string, versionId: string | null) => {
    const state = await store.get(bucket, key);
    const current = state?.versionId ?? NULL_VERSION;
    if (versionId !== null && versionId !== current) throw new S3Failure(404, 'NoSuchVersion', 'The specified version does not exist.');
    return state ?? { key, versionId: NULL_VERSION };
  };

  async function handleObject(req: IncomingMessage, res: ServerResponse, { bucket, key }: { bucket: string; key: string }, target: RequestTarget): Promise<void> {
    const { query } = target;
    const subResources = [...query.keys()].filter((name) => !isPlainQuery(name));
    const versionId = query.get('versionId');
    // s3rver knows no versions: the one it keeps is the one the version id named (checked below).
    const rest = target.search.split('&').filter((part) => part !== '' && part.split('=')[0] !== 'versionId');
    const plainPath = `${target.path}${rest.length > 0 ? `?${rest.join('&')}` : ''}`;
    const bypass = String(req.headers['x-amz-bypass-governance-retention']).toLowerCase() === 'true';
    const lockedBucket = locked.has(bucket);
    const putsObject = req.method === 'PUT' && subResources.length === 0;
    // An upload bound to its declared size and hash is refused here as S3 refuses it; s3rver would take any body.
    const bindingRefusal = putsObject ? presignedBindingRefusal({ method: 'PUT', rawPath: target.path, rawSearch: target.search, headers: req.headers }, signingSecrets, now()) : undefined;
    if (bindingRefusal) throw refusedUpload(bindingRefusal);
    const declaredSha256 = req.headers['x-amz-checksum-sha256'];
    const uploadBody = (): 'stream' | Transform =>
      putsObject && typeof declaredSha256 === 'string' && !String(req.headers['content-encoding'] ?? '').includes('aws-chunked')
        ? sha256Verifier(declaredSha256, refusedUpload)
        : 'stream';

    if (subResources.length === 1 && (subResources[0] === 'legal-hold' || subResources[0] === 'retention')) {
      if (!lockedBucket) throw noLockConfiguration();
      if (req.method !== 'GET' && req.method !== 'PUT') throw new S3Failure(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
      const body = req.method === 'PUT' ? (await readSmallBody(req)).toString('utf8') : '';
      await serialize(`${bucket}\0${key}`, async () => {
        if (!(await objectExists(req, target.path))) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
        const state = await versionState(bucket, key, versionId);
        const versionHeader = { 'x-amz-version-id': state.versionId };
        if (subResources[0] === 'legal-hold') {
          if (req.method === 'GET') {
            if (state.legalHold === undefined) throw new S3Failure(404, 'NoSuchObjectLockConfiguration', 'The specified object does not have a ObjectLock configuration');
            return sendXml(res, 200, `<LegalHold xmlns="${XMLNS}"><Status>${state.legalHold}</Status></LegalHold>`, versionHeader);
          }
          const status = xmlValue(body, 'Status');
          if (status !== 'ON' && status !== 'OFF') throw new S3Failure(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
          await store.put(bucket, { ...state, legalHold: status });
          return void res.writeHead(200, { 'content-length': 0, ...versionHeader }).end();
        }
        if (req.method === 'GET') {
          if (state.retention === undefined) throw new S3Failure(404, 'NoSuchObjectLockConfiguration', 'The specified object does not have a ObjectLock configuration');
          return sendXml(res, 200, retentionXml(state.retention), versionHeader);
        }
        const mode = xmlValue(body, 'Mode');
        const until = xmlValue(body, 'RetainUntilDate');
        if (!/<Retention[\s>]/.test(body) || (mode !== undefined && !isLockMode(mode)) || (mode === undefined) !== (until === undefined)) {
          throw new S3Failure(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
        }
        const next = isLockMode(mode) ? { mode, retainUntil: futureDate(until, now()) } : undefined;
        const refusal = retentionChangeRefusal(state.retention, next, bypass, now());
        if (refusal) throw accessDenied(refusal);
        const { retention: _previous, ...rest } = state;
        await store.put(bucket, next ? { ...rest, retention: next } : rest);
        return void res.writeHead(200, { 'content-length': 0, ...versionHeader }).end();
      });
      return;
    }

    if (!lockedBucket) {
      if (req.method === 'PUT' && subResources.length === 0 && lockHeadersOf(req.headers, now())) throw noLockConfiguration();
      return relay(res, await forward(req, req.url as string, req.headers, uploadBody()));
    }

    if (req.method === 'DELETE' && subResources.length === 0) {
      return serialize(`${bucket}\0${key}`, async () => {
        const state = await versionState(bucket, key, versionId);
        const refusal = deleteRefusal(state, bypass, now());
        if (refusal) throw accessDenied(refusal);
        const answer = await forward(req, plainPath, req.headers);
        if ((answer.statusCode ?? 500) < 300) await store.remove(bucket, key);
        await relay(res, answer, versionId !== null ? ['x-amz-version-id', versionId] : []);
      });
    }

    if ((req.method === 'GET' || req.method === 'HEAD') && subResources.length === 0) {
      const state = await versionState(bucket, key, versionId);
      const answer = await forward(req, plainPath, req.headers);
      return relay(res, answer, (answer.statusCode ?? 500) < 300 && state.versionId !== NULL_VERSION ? lockResponseHeaders(state) : []);
    }

    if (req.method === 'POST' && subResources.includes('uploads') && lockHeadersOf(req.headers, now())) {
      throw new S3Failure(501, 'NotImplemented', 'The local Object Lock stand-in does not take lock settings on multipart uploads');
    }

    // A write of the object itself: PutObject, CopyObject, or CompleteMultipartUpload.
    const writesObject = (req.method === 'PUT' && subResources.length === 0) || (req.method === 'POST' && subResources.length === 1 && subResources[0] === 'uploadId');
    if (!writesObject) return relay(res, await forward(req, req.url as string, req.headers, 'stream'));
    const settings = lockHeadersOf(req.headers, now()) ?? {};
    return serialize(`${bucket}\0${key}`, async () => {
      const existing = await store.get(bucket, key);
      if (isLocked(existing, now())) throw accessDenied('a locked object version cannot be overwritten here: the local stand-in keeps one version per key');
      const answer = await forward(req, req.method === 'PUT' ? plainPath : (req.url as string), req.headers, uploadBody());
      if ((answer.statusCode ?? 500) >= 300) return relay(res, answer);
      const state: ObjectLockState = { key, versionId: newVersionId(), ...settings };
      // Nothing is recorded best-effort: a lock that cannot be written fails the write that asked for it.
      await store.put(bucket, state);
      await relay(res, answer, ['x-amz-version-id', state.versionId]);
    });
  }

  /** DeleteObjects: entries naming a locked object are answered AccessDenied; the others go to s3rver. */
  async function handleDeleteObjects(req: IncomingMessage, res: ServerResponse, bucket: string, target: RequestTarget): Promise<void> {
    const body = (await readSmallBody(req)).toString('utf8');
    const entries = [...body.matchAll(/<Object>([\s\S]*?)<\/Object>/g)].map((match) => ({
      xml: match[0],
      key: xmlValue(match[1] as string, 'Key') ?? '',
      versionId: xmlValue(match[1] as string, 'VersionId'),
    }));
    const bypass = String(req.headers['x-amz-bypass-governance-retention']).toLowerCase() === 'true';
    const quiet = xmlValue(body, 'Quiet') === 'true';
    const refused: string[] = [];
    const allowed: typeof entries = [];
    for (const entry of entries) {
      const state = await store.get(bucket, entry.key);
      const current = state?.versionId ?? NULL_VERSION;
      if (entry.versionId !== undefined && entry.versionId !== current) {
        refused.push(`<Error><Key>${escapeXml(entry.key)}</Key><VersionId>${escapeXml(entry.versionId)}</VersionId><Code>NoSuchVersion</Code><Message>The specified version does not exist.</Message></Error>`);
      } else if (deleteRefusal(state, bypass, now())) {
        refused.push(`<Error><Key>${escapeXml(entry.key)}</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`);
      } else {
        allowed.push(entry);
      }
    }
    let result = `<DeleteResult xmlns="${XMLNS}"></DeleteResult>`;
    if (allowed.length > 0) {
      const forwarded = Buffer.from(
        `<Delete>${quiet ? '<Quiet>true</Quiet>' : ''}${allowed.map((entry) => `<Object><Key>${escapeXml(entry.key)}</Key></Object>`).join('')}</Delete>`,
      );
      const headers: IncomingHttpHeaders = { ...req.headers, 'content-length': String(forwarded.length), 'content-md5': createHash('md5').update(forwarded).digest('base64') };
      for (const name of Object.keys(headers)) if (name.startsWith('x-amz-checksum') || name === 'x-amz-sdk-checksum-algorithm' || name === 'transfer-encoding') delete headers[name];
      headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      const answer = await forward(req, `${target.path}?delete`, headers, forwarded);
      const text = (await readSmallBody(answer)).toString('utf8');
      if ((answer.statusCode ?? 500) >= 300) return sendXml(res, answer.statusCode ?? 500, text.replace(/^<\?xml[^>]*>\s*/, ''));
      for (const entry of allowed) await store.remove(bucket, entry.key);
      result = text.replace(/^<\?xml[^>]*>\s*/, '');
    }
    sendXml(res, 200, result.replace(/<\/DeleteResult>\s*$/, `${refused.join('')}</DeleteResult>`));
  }

  const server = createServer((req, res) => {
    const target = requestTargetOf(req.url ?? '/');
    const [, bucket = '', ...keyParts] = target.path.split('/');
    const encodedKey = keyParts.join('/');
    const work = async () => {
      if (bucket !== '' && encodedKey !== '') return handleObject(req, res, { bucket, key: decodedKey(encodedKey) }, target);
      if (bucket !== '' && locked.has(bucket) && req.method === 'POST' && target.query.has('delete')) return handleDeleteObjects(req, res, bucket, target);
      if (bucket !== '' && req.method === 'GET' && target.query.has('object-lock')) {
        if (!locked.has(bucket)) throw new S3Failure(404, 'ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket');
        return sendXml(res, 200, `<ObjectLockConfiguration xmlns="${XMLNS}"><ObjectLockEnabled>Enabled</ObjectLockEnabled></ObjectLockConfiguration>`);
      }
      return relay(res, await forward(req, req.url as string, req.headers, 'stream'));
    };
    work().catch((error: unknown) => {
      // The caller went away mid-request (an upload aborted on purpose): nobody is left to answer.
      if (req.errored || res.destroyed) return void res.destroy();
      const failure = error instanceof S3Failure ? error : new S3Failure(500, 'InternalError', 'We encountered an internal error. Please try again.');
      if (!(error instanceof S3Failure)) console.error(`S3 Object Lock proxy: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent) return void res.destroy();
      // A refused write's body is not read: close the connection rather than drain an upload nobody will keep.
      if (!req.complete) res.setHeader('connection', 'close');
      sendError(res, failure, target.path);
    });
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });

  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
