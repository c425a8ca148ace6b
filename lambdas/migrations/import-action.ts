import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';

/**
 * The act an import's alerts name: the import job runs with no caller of its own, so it names the action the contract
 * declares for starting it (`POST migrations/{reference}/start`), read from there rather than repeated.
 */
export const IMPORT_ACTION = endpointOf(migrationEndpoints, 'client.migrations.start').action;
