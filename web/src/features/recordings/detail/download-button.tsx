import { useQueryClient } from '@tanstack/react-query';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import { payloadAuditQueryKey } from '../api/get-payload-audit.ts';
import { payloadDataQueryOptions } from '../api/get-payload-data.ts';

/**
 * "Download", offered only to a role that may take a copy (`payloads:Download`; playing and viewing need only
 * `payloads:Play`): asks for a fresh download link on each press (never a cached one: each press is a copy, and a
 * record in the audit trail) and follows it. The server names the file, e.g. `call-alice-archer-20261127-0759-<ref>.wav`.
 */
export function DownloadButton({ payloadReference }: { payloadReference: string }) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  // A reviewer is not offered a copy at all (not a disabled button): reviewing is playing and viewing.
  const allowed = useCan('payloads:Download').allowed;
  const download = async () => {
    const answer = await queryClient.fetchQuery(payloadDataQueryOptions(session, payloadReference, 'download'));
    void queryClient.invalidateQueries({ queryKey: payloadAuditQueryKey(session, payloadReference) });
    if (answer.s3_url !== undefined) window.location.assign(answer.s3_url);
  };
  if (!allowed) return null;
  return (
    <PermittedButton action="payloads:Download" variant="default" onClick={() => void download()}>
      Download
    </PermittedButton>
  );
}
