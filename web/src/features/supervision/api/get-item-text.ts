import { useEffect, useRef, useState } from 'react';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { fetchMessageText } from '../../../lib/message-text.ts';
import { useSession } from '../../../lib/session/session-context.tsx';

/** `GET payloads/{ref}/data?action=view`: a short-lived link to the message, and one "Viewed" record on its audit trail. */
export const getItemData = endpointOf(payloadEndpoints, 'client.payloads.data');

export interface ItemText {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  text?: string;
  error?: Error;
}

/**
 * A message's text, read through the audited view link when the item is opened: the item stores only offsets, so the
 * reviewer reads the text as any viewer does, and the view is on the recording's audit trail. Asked once per opening
 * (a ref guards it, not the query cache), so no re-render, refetch or window focus writes a second record.
 */
export function useItemText(payloadReference: string, enabled: boolean): ItemText {
  const { session } = useSession();
  const [state, setState] = useState<ItemText & { reference?: string }>({ status: 'idle' });
  const asked = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (!enabled || asked.current === payloadReference) return;
    asked.current = payloadReference;
    setState({ reference: payloadReference, status: 'loading' });
    const settle = (next: ItemText) => {
      // An answer for a recording no longer shown is dropped.
      if (asked.current === payloadReference) setState({ ...next, reference: payloadReference });
    };
    session
      .call(getItemData, { params: { payload_reference: payloadReference }, query: { action: 'view' } })
      .then(async (data) => {
        if (data.s3_url === undefined) throw new Error('No link to the text was given.');
        return fetchMessageText(data.s3_url);
      })
      .then(
        (text) => settle({ status: 'ready', text }),
        (error: unknown) => settle({ status: 'failed', error: error instanceof Error ? error : new Error(String(error)) }),
      );
  }, [enabled, payloadReference, session]);

  return state.reference === payloadReference ? state : { status: 'idle' };
}
