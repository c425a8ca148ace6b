import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';

/** `POST migrations`: a new Pending migration and the pre-signed URL its file goes to. */
export const submitMigration = endpointOf(migrationEndpoints, 'client.migrations.create');
