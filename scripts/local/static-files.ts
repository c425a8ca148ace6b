import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/**
 * Resolves a URL path to a file inside `root`, or undefined. Refuses anything that escapes the root
 * (`..`, encoded `%2e%2e`, backslashes, NUL) rather than trusting the path.
 */
export function resolveStaticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const base = resolve(root);
  const candidate = resolve(base, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  if (candidate !== base && !candidate.startsWith(base + sep)) return undefined;
  if (!existsSync(candidate) || !statSync(candidate).isFile()) return undefined;
  return candidate;
}

/**
 * Serves the built web app: a real file when one matches, else index.html (the SPA decides the route and shows
 * its own 'Page not found'). Hashed assets are cached for good; index.html and config.js never, so a new build
 * or a changed runtime config is seen at once.
 */
export function serveWebApp(root: string, req: IncomingMessage, res: ServerResponse, urlPath: string): void {
  const index = join(root, 'index.html');
  const file = resolveStaticPath(root, urlPath) ?? (existsSync(index) ? index : undefined);
  if (!file) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The web app is not built: run `npx vite build --config web/vite.config.ts`.');
    return;
  }
  const immutable = urlPath.startsWith('/assets/');
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': statSync(file).size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
