import { describe, expect, it } from 'vitest';
import { actionsOf } from './endpoint.ts';
import { ACTION_NAMES } from './actions.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { ENDPOINTS } from './registry.ts';
import { SUPPORT_MODE_REFUSED, supportModeRefusal, supportModeRefusalOf } from './support-mode.ts';

/** Every endpoint support mode refuses, by the registry: a new endpoint naming one of these actions must be added here knowingly. */
const REFUSED_ENDPOINTS = [
  'admin.roles.put',
  'admin.roles.delete',
  'admin.account.defaults.put',
  'admin.apps.create',
  'admin.apps.update',
  'client.transfer-configs.create',
  'client.transfer-configs.update',
].sort();

describe('support mode refusals', () => {
  it('name only actions of the catalogue', () => {
    for (const action of Object.keys(SUPPORT_MODE_REFUSED)) expect(ACTION_NAMES, action).toContain(action);
  });

  it('refuse exactly the endpoints that create or change client apps, transfer configurations, roles and the default role', () => {
    const refused = ENDPOINTS.filter((endpoint) => actionsOf(endpoint).some((action) => supportModeRefusalOf(action) !== undefined));
    expect(refused.map((endpoint) => endpoint.id).sort()).toEqual(REFUSED_ENDPOINTS);
    // None is reached by the provider's own console, where support mode never applies.
    expect(refused.every((endpoint) => endpoint.surface === 'admin' || endpoint.surface === 'client')).toBe(true);
  });

  it('leave deleting and running alone: they end or act now, and start nothing that outlives the grant', () => {
    for (const id of ['admin.apps.delete', 'client.transfer-configs.delete', 'client.transfer-configs.run', 'client.transfers.rerun']) {
      const endpoint = ENDPOINTS.find((candidate) => candidate.id === id);
      expect(endpoint, id).toBeDefined();
      expect(supportModeRefusal(endpoint as NonNullable<typeof endpoint>), id).toBeUndefined();
    }
  });

  it('answer one line naming what is refused and whom to ask', () => {
    expect(supportModeRefusalOf('apps:Create')).toBe("Support mode cannot create or change client apps; ask the tenant's administrator");
    expect(supportModeRefusalOf('roles:Delete')).toBe("Support mode cannot create, change or delete roles; ask the tenant's administrator");
    expect(supportModeRefusalOf('payloads:List')).toBeUndefined();
    // Only the table's own keys: an inherited property is no refusal.
    expect(supportModeRefusalOf('constructor')).toBeUndefined();
  });

  it('are documented on each refused endpoint\'s 403 in the OpenAPI document, and on no other', () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, { operationId: string; responses: Record<string, { description: string }> }>>;
    const documented = Object.values(paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.responses['403']?.description.includes('Always refused in support mode') === true)
      .map((operation) => operation.operationId)
      .sort();
    expect(documented).toEqual(REFUSED_ENDPOINTS);
  });
});
