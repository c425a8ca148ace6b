import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import {
  buildContext,
  buildEvent,
  createRouter,
  splitUrl,
  toGatewayResponse,
  type RouteTarget,
} from './api-gateway.ts';
import { serveWebApp } from './static-files.ts';

/** A Lambda handler as the group modules export it. */
export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export interface GatewayServerOptions<T extends RouteTarget> {
  endpoints: readonly T[];
  /** Loads a group's handler; undefined when the group's module does not exist yet (the endpoint then answers 501). */
  loadHandler(group: string): Promise<LambdaHandler | undefined>;
  /** Handles `/oidc/**`; answers false when it did not. */
  oidc?(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** `GET /healthz`: the status and body to answer. */
  health(): Promise<{ ok: boolean; body: unknown }>;
  /** `GET /openapi.json`. */
  openapi(): Promise<unknown>;
  /** Root of the built web app (`web/dist`). */
  webRoot: string;
  /** Logs one line per handler failure; silent when absent. */
  log?(line: string): void;
  /**
   * Headers every portal and API response carries: production's (lib/config/security-headers.ts), as CloudFront adds
   * them. Not on `/oidc/**`: the provider stands in for Cognito's hosted pages, another origin in production.
   */
  securityHeaders?: Readonly<Record<string, string>>;
}

/** API Gateway's payload limit; larger bodies are refused before a handler sees them. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * Versioned on purpose: `/internal` and `/internal/support` are portal pages (spec point 2), so a bare `/internal/`
 * prefix would answer a reload of them with the API's JSON 404.
 */
const API_PREFIXES = ['/api/', '/internal/v1/', '/device/'];

function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path.startsWith(prefix)) || ['/api', '/internal/v1', '/device'].includes(path);
}

/** Only loopback origins (the portal on this port, `vite dev`) get CORS; nothing else is reflected. */
function allowedOrigin(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) && url.origin === origin) {
      return origin;
    }
  } catch {
    // not a URL: no CORS
  }
  return undefined;
}

function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = allowedOrigin(req.headers.origin);
  if (!origin) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'content-type',
    vary: 'Origin',
  };
}

/** Error answers the gateway itself produces, in the same shape as the handlers' (`error_code`, `message`, `errors`). */
function sendError(exchange: Exchange, status: number, lines: string[], headers: Record<string, string> = {}): void {
  sendJson(exchange, status, { error_code: status, message: lines.join('\n'), errors: lines }, headers);
}

/** One request and the response that answers it. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

function sendJson({ req, res }: Exchange, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...corsHeaders(req),
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
}

/**
 * The request listener: `/oidc/**` to the identity provider, `/healthz`, `/openapi.json`, declared API routes to
 * their group's Lambda handler (as API Gateway would), a JSON 404 for other API paths, and the web app for the rest.
 */
export function createRequestListener<T extends RouteTarget>(options: GatewayServerOptions<T>) {
  const match = createRouter(options.endpoints);
  const log = options.log ?? (() => undefined);

  async function api(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      // Preflight: API Gateway's CORS configuration answers these without invoking a Lambda.
      res.writeHead(204, {
        ...corsHeaders(req),
        'access-control-allow-methods': 'GET, POST, PUT, DELETE',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const found = match(method, rawPath);
    if (found.kind === 'not-found') {
      sendError({ req, res }, 404, [`path: No endpoint is declared for ${method} ${rawPath}`]);
      return;
    }
    if (found.kind === 'method-not-allowed') {
      sendError({ req, res }, 405, [`method: ${method} is not allowed here; use ${found.allowed.join(', ')}`], {
        allow: found.allowed.join(', '),
      });
      return;
    }
    if (found.kind === 'bad-encoding') {
      sendError({ req, res }, 400, [`${found.parameter}: Invalid percent-encoding`]);
      return;
    }
    const { endpoint, pathParameters } = found;
    let body: string | undefined;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        sendError({ req, res }, 413, ['body: Request body is larger than 10 MB']);
        return;
      }
      throw error;
    }
    const handler = await options.loadHandler(endpoint.group);
    if (!handler) {
      sendError({ req, res }, 501, [`${endpoint.id}: ${endpoint.method} ${endpoint.fullPath} is not implemented yet`]);
      return;
    }
    const event = buildEvent(
      { method, url: req.url ?? rawPath, rawHeaders: req.rawHeaders, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
      endpoint,
      pathParameters,
    );
    let result: APIGatewayProxyResultV2;
    try {
      result = await handler(event, buildContext(endpoint.group, event.requestContext.requestId));
    } catch (error) {
      // In AWS an uncaught Lambda error is API Gateway's bare 500; the handlers' own error middleware should
      // make this unreachable, so log it loudly.
      log(`[${endpoint.id}] handler threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendError({ req, res }, 500, ['Internal Server Error']);
      return;
    }
    const response = toGatewayResponse(result);
    if (response.statusCode >= 500) log(`[${endpoint.id}] answered ${response.statusCode}: ${response.body.toString('utf8').slice(0, 300)}`);
    const headers: Record<string, string | string[]> = { ...corsHeaders(req), ...response.headers };
    if (response.cookies.length > 0) headers['set-cookie'] = response.cookies;
    headers['content-length'] = String(response.body.length);
    res.writeHead(response.statusCode, headers);
    res.end(response.body);
  }

  return async function listener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (options.oidc && (await options.oidc(req, res))) return;
      // Set before any answer is written: writeHead keeps them, as CloudFront's policy overrides the origin's.
      for (const [name, value] of Object.entries(options.securityHeaders ?? {})) res.setHeader(name, value);
      const { rawPath } = splitUrl(req.url ?? '/');
      const method = req.method ?? 'GET';
      if (rawPath === '/healthz' && (method === 'GET' || method === 'HEAD')) {
        const health = await options.health();
        sendJson({ req, res }, health.ok ? 200 : 503, health.body);
        return;
      }
      if (rawPath === '/openapi.json' && (method === 'GET' || method === 'HEAD')) {
        sendJson({ req, res }, 200, await options.openapi());
        return;
      }
      if (isApiPath(rawPath)) {
        await api(req, res, rawPath);
        return;
      }
      if (method === 'GET' || method === 'HEAD') {
        serveWebApp(options.webRoot, req, res, rawPath);
        return;
      }
      sendError({ req, res }, 405, [`method: ${method} is not allowed here`]);
    } catch (error) {
      log(`[gateway] ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendError({ req, res }, 500, ['Internal Server Error']);
      else res.destroy();
    }
  };
}

/** Listens on loopback (IPv4, and IPv6 on the same port when available, since `localhost` may resolve to ::1). */
export async function listenLoopback(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
): Promise<{ port: number; servers: Server[] }> {
  const listen = (server: Server, host: string, wanted: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(wanted, host, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : wanted);
      });
    });
  const v4 = createServer(listener);
  const actual = await listen(v4, '127.0.0.1', port);
  const servers = [v4];
  const v6 = createServer(listener);
  try {
    await listen(v6, '::1', actual);
    servers.push(v6);
  } catch {
    // No IPv6 loopback (or the port is taken there): IPv4 alone is enough for 127.0.0.1 and most `localhost`s.
  }
  return { port: actual, servers };
}
