import * as z from 'zod';

/**
 * The four API surfaces. Each has its own URL base (DESIGN.md §4):
 * - admin and client share `/api/v1/{client}` (they never share a method + path);
 * - internal is the provider console at `/internal/v1`;
 * - device is the phone-facing API at `/device/v1`.
 */
export const SURFACES = ['admin', 'client', 'internal', 'device'] as const;
export type Surface = (typeof SURFACES)[number];

export const SURFACE_BASES: Record<Surface, string> = {
  admin: '/api/v1/{client}',
  client: '/api/v1/{client}',
  internal: '/internal/v1',
  device: '/device/v1',
};

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call an endpoint:
 * - public: nobody needs a token (sign-in URL, code exchange, account metadata);
 * - user: a portal user's id token (tenant user, or staff in support mode);
 * - client-app: a portal user's id token, or a tenant client app's token from its own OIDC issuer;
 * - device: a device token issued by the device authentication exchange.
 */
export const AUTH_KINDS = ['public', 'user', 'client-app', 'device'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

/**
 * Endpoint groups: one Lambda function (and one folder under `lambdas/`) per group.
 * The CDK api stack and the local server both read this list.
 */
export const ENDPOINT_GROUPS = [
  'identity',
  'access',
  'support-access',
  'audit',
  'alerts',
  'devices',
  'licences',
  'device-data',
  'payloads',
  'account-data',
  'transfers',
  'migrations',
  'supervision',
  'completeness',
  'cases',
  'device-api',
] as const;
export type EndpointGroup = (typeof ENDPOINT_GROUPS)[number];

/** Action names are `<area>:<Verb>`, e.g. `devices:List`. */
export const ACTION_NAME = /^[a-z][a-zA-Z]*:[A-Z][a-zA-Z]*$/;

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** What a contract author writes for one endpoint. */
export interface EndpointSpec<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
  I extends string = string,
> {
  /** Unique, stable id: `<surface>.<area>.<verb>`, e.g. `admin.devices.list`. Kept literal so the web can pick by id. */
  id: I;
  surface: Surface;
  method: HttpMethod;
  /** Path below the surface base, with `{param}` placeholders, e.g. `/devices/{device_reference}`. */
  path: string;
  auth: AuthKind;
  /** The one action this endpoint needs, `<area>:<Verb>` (with `actionByQuery`: the action of the field's default). */
  action: string;
  /**
   * For one path whose acts differ in weight (the data endpoints: play or view, or download), the action is chosen by
   * a query field: `actions` maps each of the field's values to the action a call with it needs. The authorizer, the
   * activity record and the group scope read it through `callAction`; the catalogue lists every action it names.
   */
  actionByQuery?: { field: string; actions: Readonly<Record<string, string>> };
  group: EndpointGroup;
  summary: string;
  /** Path parameters, excluding `client` (added for the admin and client surfaces). */
  params?: P;
  query?: Q;
  body?: B;
  response: R;
}

/** A registered endpoint: the spec with defaults filled and the full path resolved. */
export interface Endpoint<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
  I extends string = string,
> extends Omit<EndpointSpec<P, Q, B, R, I>, 'params' | 'query'> {
  params: P;
  query: Q;
  /** Full path including the surface base, e.g. `/api/v1/{client}/devices/{device_reference}`. */
  fullPath: string;
}

const emptyObject = z.strictObject({});

/** Declares one endpoint. Params, query and body default to "nothing accepted". */
/* eslint-disable @typescript-eslint/no-empty-object-type -- `{}` is zod's own shape type for "no keys" */
export function defineEndpoint<
  P extends AnyObject = z.ZodObject<{}>,
  Q extends AnyObject = z.ZodObject<{}>,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  const I extends string = string,
>(spec: EndpointSpec<P, Q, B, R, I>): Endpoint<P, Q, B, R, I> {
  return {
    ...spec,
    params: (spec.params ?? emptyObject) as P,
    query: (spec.query ?? emptyObject) as Q,
    fullPath: SURFACE_BASES[spec.surface] + spec.path,
  };
}
/* eslint-enable @typescript-eslint/no-empty-object-type */

/**
 * The action one call needs: the action its query names (`actionByQuery`, read from the PARSED query, so a default
 * applies), else the endpoint's own. A value the map does not name falls back to the endpoint's action.
 */
export function callAction(endpoint: Pick<Endpoint, 'action' | 'actionByQuery'>, query: unknown): string {
  const choice = endpoint.actionByQuery;
  if (choice === undefined || typeof query !== 'object' || query === null) return endpoint.action;
  const value = (query as Record<string, unknown>)[choice.field];
  return (typeof value === 'string' && Object.hasOwn(choice.actions, value) ? choice.actions[value] : undefined) ?? endpoint.action;
}

/** Every action an endpoint may need: its own and those its query may choose. */
export function actionsOf(endpoint: Pick<Endpoint, 'action' | 'actionByQuery'>): string[] {
  return [...new Set([endpoint.action, ...Object.values(endpoint.actionByQuery?.actions ?? {})])];
}

/** Names of the `{placeholders}` in a path template, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1] as string);
}
