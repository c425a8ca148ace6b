import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';
import { ENDPOINTS } from './registry.ts';

describe('buildOpenApiDocument', () => {
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string; tags: string[]; security: unknown[]; parameters: { name: string; in: string }[] }>>;
  };

  it('is valid JSON declaring OpenAPI 3.1.0', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('has one operation per endpoint, with its id, group tag and path parameters', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(ENDPOINTS.length);
    for (const endpoint of ENDPOINTS) {
      const op = document.paths[endpoint.fullPath]?.[endpoint.method.toLowerCase()];
      expect(op?.operationId, endpoint.id).toBe(endpoint.id);
      expect(op?.tags).toEqual([endpoint.group]);
      const pathParams = op?.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
      expect(pathParams, endpoint.id).toEqual([...endpoint.fullPath.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]));
      expect(op?.security.length === 0, endpoint.id).toBe(endpoint.auth === 'public');
    }
  });

  it('includes the client path parameter on admin and client paths', () => {
    const op = document.paths['/api/v1/{client}/devices']?.get;
    expect(op?.parameters.some((parameter) => parameter.name === 'client' && parameter.in === 'path')).toBe(true);
  });
});
