import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';

/**
 * `POST migrations`: a new Pending migration and the pre-signed URL its file goes to. No hook: the upload flow
 * (submit-export.tsx, submission-flow.ts) calls it as one step of submit → upload → start, shows a failed step with its
 * retry itself (a mutation's failure would also raise the QueryClient's notification) and invalidates once at the end.
 */
export const submitMigration = endpointOf(migrationEndpoints, 'client.migrations.create');
