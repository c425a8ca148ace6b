import * as z from 'zod';
import type { AuthKind, Endpoint } from './endpoint.ts';
import { pathParamNames } from './endpoint.ts';
import { ErrorBody } from './entities/common.ts';
import { ClientId } from './fields.ts';
import { supportModeRefusal } from './support-mode.ts';
import { ENDPOINTS } from './registry.ts';

type JsonObject = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  delete json.$schema;
  return json;
};

/** Security requirement per auth kind (public endpoints need none). */
const SECURITY: Record<AuthKind, JsonObject[]> = {
  public: [],
  user: [{ userToken: [] }],
  'client-app': [{ userToken: [] }, { clientAppToken: [] }],
  device: [{ deviceToken: [] }],
};

function parameters(endpoint: Endpoint): JsonObject[] {
  const result: JsonObject[] = [];
  const paramShape = endpoint.params.shape as Record<string, z.ZodType>;
  for (const name of pathParamNames(endpoint.fullPath)) {
    const schema = paramShape[name] ?? (name === 'client' ? ClientId : z.string());
    result.push({ name, in: 'path', required: true, schema: toSchema(schema, 'input') });
  }
  const queryShape = endpoint.query.shape as Record<string, z.ZodType>;
  for (const [name, schema] of Object.entries(queryShape)) {
    const optional = schema.safeParse(undefined).success;
    result.push({ name, in: 'query', required: !optional, schema: toSchema(schema, 'input') });
  }
  return result;
}

const errorResponse = (description: string): JsonObject => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** The 403's description: an act support mode refuses says so, with its line (shared/contract/support-mode.ts). */
function forbiddenWords(endpoint: Endpoint): string {
  const refusal = supportModeRefusal(endpoint);
  return refusal === undefined ? 'Not permitted.' : `Not permitted. Always refused in support mode: "${refusal}".`;
}

function operation(endpoint: Endpoint): JsonObject {
  const op: JsonObject = {
    operationId: endpoint.id,
    summary: endpoint.summary,
    tags: [endpoint.group],
    'x-action': endpoint.action,
    ...(endpoint.actionByQuery === undefined ? {} : { 'x-action-by-query': { field: endpoint.actionByQuery.field, actions: { ...endpoint.actionByQuery.actions } } }),
    'x-surface': endpoint.surface,
    security: SECURITY[endpoint.auth],
    parameters: parameters(endpoint),
    responses: {
      '200': {
        description: 'OK',
        content: { 'application/json': { schema: toSchema(endpoint.response, 'output') } },
      },
      '400': errorResponse('Invalid input: one `path: message` line per problem.'),
      ...(endpoint.auth === 'public' ? {} : { '401': errorResponse('Missing or invalid token.') }),
      ...(endpoint.auth === 'public' ? {} : { '403': errorResponse(forbiddenWords(endpoint)) }),
      '404': errorResponse('Not found.'),
      '501': errorResponse('Declared but not built yet.'),
    },
  };
  if (endpoint.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: toSchema(endpoint.body, 'input') } },
    };
  }
  return op;
}

/**
 * The OpenAPI 3.1 document of every endpoint in the registry (served at `/openapi.json`). Request schemas are the
 * input side of the zod schemas (before defaults and transforms), responses the output side; parts JSON Schema
 * cannot express (refinements, transforms) are left open rather than failing the build.
 */
export function buildOpenApiDocument(endpoints: readonly Endpoint[] = ENDPOINTS): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const endpoint of endpoints) {
    const item = (paths[endpoint.fullPath] ??= {});
    item[endpoint.method.toLowerCase()] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Verity API',
      version: '1.0.0',
      description: 'Compliance-recording portal for managed mobile devices: admin, client, internal and device APIs.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(endpoints.map((endpoint) => endpoint.group))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ErrorBody: toSchema(ErrorBody, 'output') },
      securitySchemes: {
        userToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A portal user's id token. In support mode: `internal-{request_reference} <id_token>`.",
        },
        clientAppToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A client app's token from its configured OIDC issuer.",
        },
        deviceToken: { type: 'http', scheme: 'bearer', description: 'A device token from /device/v1/authenticate.' },
      },
    },
  };
}
