import { useQueryClient } from '@tanstack/react-query';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { useSession } from '../../session/session-context.tsx';
import { payloadDataQueryOptions } from '../api/get-payload-data.ts';

/**
 * "Download": asks for a fresh audited download link on each press (never a cached one) and follows it; the server
 * names the file after the payload reference.
 */
export function DownloadButton({ payloadReference }: { payloadReference: string }) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const download = async () => {
    const options = payloadDataQueryOptions(session, payloadReference, 'download');
    // Each press is a new download, and a new record in the audit trail.
    const answer = await queryClient.fetchQuery({ ...options, staleTime: 0 });
    if (answer.s3_url !== undefined) window.location.assign(answer.s3_url);
  };
  return (
    <PermittedButton action="payloads:Download" variant="default" onClick={() => void download()}>
      Download
    </PermittedButton>
  );
}
