import { actionsOf, type Endpoint, type Surface } from './endpoint.ts';
import { accessEndpoints } from './endpoints/access.ts';
import { accountDataEndpoints } from './endpoints/account-data.ts';
import { erasureRequestEndpoints } from './endpoints/erasure-requests.ts';
import { alertEndpoints } from './endpoints/alerts.ts';
import { auditEndpoints } from './endpoints/audit.ts';
import { integrityEndpoints } from './endpoints/integrity.ts';
import { deviceApiEndpoints } from './endpoints/device-api.ts';
import { deviceDataEndpoints } from './endpoints/device-data.ts';
import { deviceEndpoints } from './endpoints/devices.ts';
import { identityEndpoints } from './endpoints/identity.ts';
import { licenceEndpoints } from './endpoints/licences.ts';
import { migrationEndpoints } from './endpoints/migrations.ts';
import { payloadEndpoints } from './endpoints/payloads.ts';
import { supportAccessEndpoints } from './endpoints/support-access.ts';
import { supervisionEndpoints } from './endpoints/supervision.ts';
import { completenessEndpoints } from './endpoints/completeness.ts';
import { caseEndpoints } from './endpoints/cases.ts';
import { productionEndpoints } from './endpoints/productions.ts';
import { transferEndpoints } from './endpoints/transfers.ts';
import { ACTION_DESCRIPTIONS } from './actions.ts';

/**
 * Every endpoint: the 110 of spec point 7 (51 admin, 38 client, 21 internal), the two terms-of-use endpoints the
 * portal's terms guard needs (admin `GET`/`PUT terms`, docs/decisions.md), and the device-facing API.
 * The backend router, the local server, the CDK api stack, the web client and the OpenAPI document all read this.
 */
export const ENDPOINTS: readonly Endpoint[] = Object.freeze([
  ...identityEndpoints,
  ...accessEndpoints,
  ...supportAccessEndpoints,
  ...auditEndpoints,
  ...integrityEndpoints,
  ...alertEndpoints,
  ...deviceEndpoints,
  ...licenceEndpoints,
  ...deviceDataEndpoints,
  ...payloadEndpoints,
  ...accountDataEndpoints,
  ...erasureRequestEndpoints,
  ...transferEndpoints,
  ...migrationEndpoints,
  ...supervisionEndpoints,
  ...completenessEndpoints,
  ...caseEndpoints,
  ...productionEndpoints,
  ...deviceApiEndpoints,
] as readonly Endpoint[]);

const byId = new Map(ENDPOINTS.map((endpoint) => [endpoint.id, endpoint]));

/** The endpoint with this id, or undefined. */
export function findEndpoint(id: string): Endpoint | undefined {
  return byId.get(id);
}

/** One action a role permission may name, with what it allows and the API surfaces whose endpoints name it. */
export interface ActionEntry {
  action: string;
  description: string;
  surfaces: readonly Surface[];
}

/** Sorted unique action names of all endpoints (those a query field chooses included), each with a one-line description. */
export const ACTION_CATALOGUE: readonly ActionEntry[] = Object.freeze(
  [...new Set(ENDPOINTS.flatMap(actionsOf))].sort().map((action) => {
    const naming = ENDPOINTS.filter((endpoint) => actionsOf(endpoint).includes(action));
    return {
      action,
      description: ACTION_DESCRIPTIONS[action] ?? naming[0]?.summary ?? action,
      surfaces: [...new Set(naming.map((endpoint) => endpoint.surface))],
    };
  }),
);

/**
 * The actions a tenant's role can usefully grant: those of the portal (admin) and client-app (client) surfaces. The
 * device API answers to device tokens and the internal console to staff, never to a tenant role, so the tenant's role
 * editor does not offer their actions.
 */
export const TENANT_ACTION_CATALOGUE: readonly ActionEntry[] = Object.freeze(
  ACTION_CATALOGUE.filter((entry) => entry.surfaces.some((surface) => surface === 'admin' || surface === 'client')),
);
