import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * What S3 checks of an upload that the local stand-in (s3rver, which checks neither signatures nor checksums) would
 * not: a pre-signed PUT whose signature covers `content-length` or `x-amz-checksum-sha256` is refused unless the
 * headers sent are the ones signed (SignatureDoesNotMatch: that is how S3 refuses a body of another size), and a body
 * whose SHA-256 is not the `x-amz-checksum-sha256` sent is refused (BadDigest). Upload links are bound to the declared
 * size and hash this way (lambdas/core/adapters/aws/s3-blob-store.ts), so storage refuses a mismatched upload.
 */

/** A refusal as S3 answers it. */
export interface UploadRefusal {
  status: number;
  code: string;
  message: string;
}

/** Headers whose signing binds an upload to what was declared. */
const BINDING_HEADERS = ['content-length', 'x-amz-checksum-sha256'];

/** RFC 3986 encoding, as SigV4's canonical query uses. */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decodeQueryPart(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** `20261128T164553Z` as a time. */
function amzDateTime(text: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  return Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
}

/** The request as it came: its method, its path and query string undecoded, its headers. */
export interface SignedRequest {
  method: string;
  rawPath: string;
  rawSearch: string;
  headers: IncomingHttpHeaders;
}

/**
 * Checks a pre-signed PUT that binds its body (signs `content-length` or `x-amz-checksum-sha256`): the SigV4 query
 * signature over the request as it came, with the secret of the key it names. Undefined when the request may go on
 * (also when it is no such request: those the stand-in keeps taking as before); otherwise S3's refusal.
 */
export function presignedBindingRefusal(request: SignedRequest, secrets: Readonly<Record<string, string>>, now: Date): UploadRefusal | undefined {
  const { method, rawPath, rawSearch, headers } = request;
  if (method !== 'PUT') return undefined;
  const pairs = rawSearch
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const mark = part.indexOf('=');
      return mark < 0 ? [decodeQueryPart(part), ''] : [decodeQueryPart(part.slice(0, mark)), decodeQueryPart(part.slice(mark + 1))];
    }) as [string, string][];
  const param = (name: string) => pairs.find(([key]) => key === name)?.[1];
  const signature = param('X-Amz-Signature');
  const signedHeaders = (param('X-Amz-SignedHeaders') ?? '').split(';');
  if (signature === undefined || !signedHeaders.some((name) => BINDING_HEADERS.includes(name))) return undefined;

  const mismatch: UploadRefusal = {
    status: 403,
    code: 'SignatureDoesNotMatch',
    message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  };
  const [accessKeyId = '', ...scopeParts] = (param('X-Amz-Credential') ?? '').split('/');
  const secret = secrets[accessKeyId];
  if (secret === undefined) return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const amzDate = param('X-Amz-Date') ?? '';
  const signedAt = amzDateTime(amzDate);
  const expiresSeconds = Number(param('X-Amz-Expires'));
  if (Number.isNaN(signedAt) || !Number.isFinite(expiresSeconds) || scopeParts.length !== 4) return mismatch;
  if (now.getTime() > signedAt + expiresSeconds * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };

  const canonicalQuery = pairs
    .filter(([key]) => key !== 'X-Amz-Signature')
    .map(([key, value]) => [encodeRfc3986(key), encodeRfc3986(value)] as const)
    .sort(([a, aValue], [b, bValue]) => (a === b ? (aValue < bValue ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  // A signed header that was not sent makes the signature fail, as at S3 (its value is not what was signed).
  const canonicalHeaders = signedHeaders.map((name) => {
    const value = headers[name];
    const text = Array.isArray(value) ? value.join(',') : (value ?? '');
    return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
  });
  const canonicalRequest = [
    method,
    rawPath,
    canonicalQuery,
    canonicalHeaders.join(''),
    signedHeaders.join(';'),
    param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = scopeParts.join('/');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const [day = '', region = '', service = '', terminator = ''] = scopeParts;
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), terminator);
  const expected = Buffer.from(hmac(signingKey, stringToSign).toString('hex'));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? undefined : mismatch;
}

/** S3's answer to a body whose SHA-256 is not the `x-amz-checksum-sha256` sent with it. */
export const badDigest: UploadRefusal = { status: 400, code: 'BadDigest', message: 'The SHA256 you specified did not match the calculated checksum.' };

/**
 * Passes a body through while hashing it, and fails (with BadDigest) at its end when the SHA-256 is not the one
 * declared. The last chunk is held back until the hash is checked, so the upstream PUT never receives its whole
 * Content-Length for a refused body: it is aborted, and nothing of it is stored. Streams: nothing is buffered but
 * one chunk.
 */
export function sha256Verifier(declaredBase64: string, onRefused: (refusal: UploadRefusal) => Error): Transform {
  const hash = createHash('sha256');
  let held: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      hash.update(chunk);
      const previous = held;
      held = chunk;
      callback(null, previous);
    },
    flush(callback: TransformCallback) {
      if (hash.digest('base64') !== declaredBase64) return callback(onRefused(badDigest));
      callback(null, held);
    },
  });
}
