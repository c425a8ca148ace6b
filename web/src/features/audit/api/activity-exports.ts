import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import type { ActivityExport } from '#shared/contract/entities/activity-export.ts';
import { PENDING_POLL_MS, useEndpointMutation, useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `POST activities/exports`: starts the job writing one trail of a period as one signed file. */
export const startActivityExport = endpointOf(auditEndpoints, 'admin.activityExports.create');
/** `GET activities/exports/{export_id}`: its progress, and when Completed a short-lived download link. */
export const readActivityExport = endpointOf(auditEndpoints, 'admin.activityExports.read');
/** `GET activities/signing-key`: the public key the export's signatures verify against. */
export const readAuditSigningKey = endpointOf(auditEndpoints, 'admin.auditSigningKey.read');

export function useStartActivityExport() {
  return useEndpointMutation(startActivityExport, { formErrors: true });
}

/** One export, asked again every few seconds while it is Running; the download link is fetched fresh (it expires). */
export function useActivityExport(exportId: string | undefined) {
  return useEndpointQuery(
    readActivityExport,
    { params: { export_id: exportId ?? '' } },
    {
      enabled: exportId !== undefined,
      staleTime: 0,
      refetchInterval: (query) => ((query.state.data as ActivityExport | undefined)?.state === 'Running' ? PENDING_POLL_MS : false),
    },
  );
}

export function useAuditSigningKey(enabled: boolean) {
  return useEndpointQuery(readAuditSigningKey, {}, { enabled, staleTime: 60 * 60_000 });
}
