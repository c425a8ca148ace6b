import * as z from 'zod';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { MAX_BODY_BYTES } from '../http/parse-request.ts';

/**
 * Test helper: for an endpoint of the registry, one body per bound its contract sets, just past that bound (an array
 * of maxItems + 1, a map of maxProperties + 1 keys, a text of maxLength + 1, a number of 1e308), read from the
 * body's JSON Schema, so every bound the contract adds is tried without a list to keep up to date. Used by the
 * pipeline's hostile-input test and by the integration test against the local stack.
 */

type JsonSchema = Record<string, unknown>;

/** A small value of a JSON Schema (valid or not: only the size of what surrounds it matters here). */
function sampleOf(schema: JsonSchema, defs: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 6) return null;
  if (typeof schema.$ref === 'string') return sampleOf(defs[schema.$ref.split('/').pop() as string] ?? {}, defs, depth + 1);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return sampleOf(branches.find((branch) => branch.type !== 'null') ?? {}, defs, depth + 1);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'string':
      return 'a'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'number':
    case 'integer':
      return Math.max(0, Number(schema.minimum ?? 0));
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => sampleOf((schema.items as JsonSchema) ?? {}, defs, depth + 1));
    case 'object':
      return Object.fromEntries(
        ((schema.required as string[] | undefined) ?? []).map((name) => [name, sampleOf((schema.properties as Record<string, JsonSchema>)[name] ?? {}, defs, depth + 1)]),
      );
    default:
      return null;
  }
}

interface Oversized {
  /** Path segments below `body` (array items are index 0). */
  path: Array<string | number>;
  value: unknown;
}

/** One value just past each bound in a schema: an array of maxItems + 1, a map of maxProperties + 1, and so on. */
function oversizedValues(schema: JsonSchema, defs: Record<string, JsonSchema>, path: Array<string | number> = [], seen = new Set<string>()): Oversized[] {
  const found: Oversized[] = [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() as string;
    return seen.has(name) ? found : oversizedValues(defs[name] ?? {}, defs, path, new Set([...seen, name]));
  }
  for (const branch of ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined) ?? []) found.push(...oversizedValues(branch, defs, path, seen));
  if (schema.type === 'array' && typeof schema.maxItems === 'number') {
    const item = sampleOf((schema.items as JsonSchema) ?? {}, defs);
    found.push({ path, value: Array.from({ length: schema.maxItems + 1 }, () => item) });
    if (schema.items) found.push(...oversizedValues(schema.items as JsonSchema, defs, [...path, 0], seen));
  }
  if (schema.type === 'object') {
    if (typeof schema.maxProperties === 'number') {
      const extra = typeof schema.additionalProperties === 'object' ? sampleOf(schema.additionalProperties as JsonSchema, defs) : 'a';
      const value = { ...(sampleOf(schema, defs) as object) } as Record<string, unknown>;
      for (let index = 0; Object.keys(value).length <= schema.maxProperties; index += 1) value[`extra${index}`] = extra;
      found.push({ path, value });
    }
    for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      found.push(...oversizedValues(property, defs, [...path, name], seen));
    }
  }
  if (schema.type === 'string' && typeof schema.maxLength === 'number') found.push({ path, value: 'a'.repeat(schema.maxLength + 1) });
  if ((schema.type === 'number' || schema.type === 'integer') && typeof schema.maximum === 'number') found.push({ path, value: 1e308 });
  return found;
}

/** `base` with `value` placed at `path` (creating objects and one-item arrays on the way). */
function placeAt(base: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') return [placeAt(Array.isArray(base) ? base[0] : undefined, rest, value)];
  const object = typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  return { ...object, [head as string]: placeAt(object[head as string], rest, value) };
}

/** One body per bound of the endpoint's body schema, each just past it; `where` is the path the answer must name. */
export function oversizedBodies(endpoint: Endpoint): Array<{ where: string; body: string }> {
  if (endpoint.body === undefined) return [];
  const json = z.toJSONSchema(endpoint.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const defs = (json.$defs as Record<string, JsonSchema> | undefined) ?? {};
  const base = sampleOf(json, defs);
  return oversizedValues(json, defs)
    .map(({ path, value }) => ({ where: ['body', ...path].join('.'), body: JSON.stringify(placeAt(base, path, value)) }))
    .filter(({ body }) => Buffer.byteLength(body) <= MAX_BODY_BYTES);
}

/** Whether a `path: message` line is about the part at `where` (or inside it). */
export function namesPart(line: string, where: string): boolean {
  return line.startsWith(`${where}: `) || line.startsWith(`${where}.`);
}
