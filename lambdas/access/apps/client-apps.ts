import type { TenantCaller } from '#core/http/caller.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { clientAppToItem, readClientApp, toClientApp } from '#core/store/entities/client-app.ts';
import { readRole } from '#core/store/entities/role.ts';
import { keys } from '#core/store/keys.ts';
import type { ClientAppConfiguration, ClientAppRequest } from '#shared/contract/entities/client-apps.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { pageOf, type QueryOf } from '#core/store/paging.ts';
import type { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import type { AccessDependencies } from '../access-lists.ts';
import { refusedAtSave } from '#core/egress/egress-check.ts';
import { securityAlertWrites } from '../../alerts/public.ts';
import { versionWrites } from '../../audit/public.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';
import { PUBLIC_ADDRESS_MESSAGE, urlPort } from '#core/egress/egress-policy.ts';

export const APP_EXISTS_MESSAGE = 'A client app with this reference already exists';

/** Client apps answer pages only (the contract's response has no count-only variant). */
export function listClientApps(caller: TenantCaller, query: QueryOf<typeof accessEndpoints, 'admin.apps.list'>) {
  const { deps: dependencies, tenant: client } = caller;
  return pageOf(dependencies, { client, query: keys.clientApp.list(client), page: query, toData: (item) => toClientApp(readClientApp(item)) });
}

export async function getClientApp(caller: TenantCaller, appReference: string): Promise<ClientAppConfiguration> {
  const { deps: dependencies, tenant: client } = caller;
  const item = await dependencies.table.get(keys.clientApp.item(client, appReference));
  if (item === undefined) throw new NotFoundError('Client app not found');
  return toClientApp(readClientApp(item));
}

/** `body.roles.<i>: Unknown role` for every named role the tenant does not have. */
async function unknownRoleLines(dependencies: Pick<AccessDependencies, 'table'>, client: string, roles: readonly string[]) {
  const unique = [...new Set(roles)];
  const found = await dependencies.table.batchGet(unique.map((role) => keys.role.item(client, role)));
  const existing = new Set(found.map((item) => readRole(item).role_reference));
  return roles.flatMap((role, i) => (existing.has(role) ? [] : [`body.roles.${i}: Unknown role`]));
}

/**
 * `body.oidc_config.<field>: …` for an issuer or key-set address that resolves to a loopback, private or otherwise
 * non-public address (docs/decisions.md "Egress"): the server would fetch keys there.
 */
async function egressLines(request: ClientAppRequest): Promise<string[]> {
  const lines: string[] = [];
  for (const field of ['issuer', 'jwks_uri'] as const) {
    if (!URL.canParse(request.oidc_config[field])) continue;
    const url = new URL(request.oidc_config[field]);
    if (await refusedAtSave(url.hostname, urlPort(url))) lines.push(`body.oidc_config.${field}: ${PUBLIC_ADDRESS_MESSAGE}`);
  }
  return lines;
}

/**
 * Registers (`mode: 'create'`, 409 when the reference exists) or replaces (`mode: 'replace'`, 404 when it does not)
 * a client app. Its roles must exist in the tenant and its issuer and key set must be public addresses (400 naming each
 * problem). The app and its sec alert (who, from where, which issuer, key set and roles) are one transaction: an app
 * never exists unreported.
 */
export async function saveClientApp(caller: TenantCaller, appReference: string, request: ClientAppRequest, mode: 'create' | 'replace'): Promise<ClientAppConfiguration> {
  const { deps: dependencies, tenant: client, principal } = caller;
  const lines = [...(await egressLines(request)), ...(await unknownRoleLines(dependencies, client, request.roles))];
  if (lines.length > 0) throw new ValidationError(lines);
  const app: ClientAppConfiguration = {
    client,
    app_reference: appReference,
    oidc_config: request.oidc_config,
    ...(request.group === undefined ? {} : { group: request.group }),
    roles: request.roles,
    cidr_ranges: request.cidr_ranges,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: dependencies.clock.now().toISOString(),
  };
  const alert = securityAlertWrites(dependencies, client, {
    kind: 'client-app-changed',
    change: mode === 'create' ? 'created' : 'replaced',
    app: appReference,
    issuer: request.oidc_config.issuer,
    jwksUri: request.oidc_config.jwks_uri,
    roles: request.roles,
    actor: actorRecordOf(principal),
    ip: caller.access?.ip,
  });
  // A replacement keeps the app as it was stored, and holds only while it is still that one (read consistently now).
  const stored = mode === 'replace' ? await dependencies.table.get(keys.clientApp.item(client, appReference), { consistent: true }) : undefined;
  if (mode === 'replace' && stored === undefined) throw new NotFoundError('Client app not found');
  try {
    await dependencies.table.transactWrite([
      { kind: 'put', item: clientAppToItem(client, app), condition: stored === undefined ? { kind: 'item-not-exists' } : unchangedItem(stored) },
      ...alert,
      ...(stored === undefined ? [] : versionWrites(caller, [{ entity: 'client-app', reference: appReference, stored, change: 'updated' }])),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    if (mode === 'create') throw new ConflictError(APP_EXISTS_MESSAGE);
    if ((await dependencies.table.get(keys.clientApp.item(client, appReference), { consistent: true })) === undefined) throw new NotFoundError('Client app not found');
    throw new ConflictError(APP_CHANGED_MESSAGE);
  }
  return app;
}

export const APP_CHANGED_MESSAGE = 'The client app changed meanwhile; read it again and retry';

/** Deletes an app, keeping it as it was stored as its last version (in the delete's transaction, while still that app). */
export async function deleteClientApp(caller: TenantCaller, appReference: string): Promise<void> {
  const { deps: dependencies, tenant: client } = caller;
  const { pk, sk } = keys.clientApp.item(client, appReference);
  const stored = await dependencies.table.get({ pk, sk }, { consistent: true });
  if (stored === undefined) throw new NotFoundError('Client app not found');
  try {
    await dependencies.table.transactWrite([
      { kind: 'delete', key: { pk, sk }, condition: unchangedItem(stored) },
      ...versionWrites(caller, [{ entity: 'client-app', reference: appReference, stored, change: 'deleted' }]),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    if ((await dependencies.table.get({ pk, sk }, { consistent: true })) === undefined) throw new NotFoundError('Client app not found');
    throw new ConflictError(APP_CHANGED_MESSAGE);
  }
}
