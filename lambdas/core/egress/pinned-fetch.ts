import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkEgress, urlPort, type EgressCheck } from './egress-policy.ts';

/** A key set is a few kilobytes; more is refused rather than read into memory. */
const MAX_BODY_BYTES = 512 * 1024;

/** The tenant-supplied address resolved to an address the egress policy refuses: nothing was sent. */
export class EgressRefusedError extends Error {
  override readonly name = 'EgressRefusedError';
}

/** What jose's `customFetch` needs of a response. */
export interface PinnedResponse {
  status: number;
  json(): Promise<unknown>;
}

/**
 * A GET to a tenant-supplied URL under the egress policy (docs/decisions.md "Egress"): the host is resolved and
 * checked now, and the connection is made to that checked address (the lookup is pinned), so a name rebound between
 * the check and the connection cannot send the request anywhere else. TLS still verifies the certificate against
 * the URL's host name. Redirects are not followed (jose asks for `redirect: manual`).
 */
export async function pinnedGet(url: string | URL, check: EgressCheck, init: { signal?: AbortSignal; headers?: HeadersInit } = {}): Promise<PinnedResponse> {
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new EgressRefusedError(`${target.protocol} is not fetched`);
  const verdict = await checkEgress(target.hostname, urlPort(target), check);
  if (!verdict.allowed) throw new EgressRefusedError(verdict.reason);
  const { address, family } = verdict;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PinnedResponse>((resolve, reject) => {
    const outgoing = send(target, { method: 'GET', lookup, headers: Object.fromEntries(new Headers(init.headers).entries()), signal: init.signal }, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) response.destroy(new Error('response too large'));
        else chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, json: async () => JSON.parse(body) as unknown });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
