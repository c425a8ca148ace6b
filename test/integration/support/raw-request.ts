import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * An HTTP request with nothing normalised: the path goes out byte for byte (fetch would resolve `..` and
 * re-encode), and a GET may carry a body (fetch refuses one). For hostile-input tests.
 */
export function rawRequest(
  baseUrl: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname === 'localhost' ? '127.0.0.1' : url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: {
          ...(options.body === undefined ? {} : { 'content-length': Buffer.byteLength(options.body) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Runs `work` over `items` with at most `limit` in flight (the machine has two cores). */
export async function mapPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}
