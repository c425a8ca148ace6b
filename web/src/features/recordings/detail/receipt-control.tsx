import { notifications } from '@mantine/notifications';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useConfirmReceipts } from '../api/confirm-receipts.ts';
import { actorName } from '../../../lib/actor-name.ts';

/** "Confirm receipt": records that the caller received the recording (a receipt in its audit trail). */
export function ReceiptControl({ payload }: { payload: Payload }) {
  const confirm = useConfirmReceipts();
  const confirmed = payload.receipt_confirmed_at !== undefined;
  return (
    <PermittedButton
      action="payloads:ConfirmReceipt"
      variant={confirmed ? 'default' : 'filled'}
      loading={confirm.isPending}
      title={confirmed ? `Receipt last confirmed ${formatDateTime(payload.receipt_confirmed_at)} by ${payload.receipt_confirmed_by === undefined ? 'unknown' : actorName(payload.receipt_confirmed_by_actor, payload.receipt_confirmed_by)}` : undefined}
      onClick={() =>
        confirm.mutate(
          { body: { payload_references: [payload.payload_reference] } },
          {
            onSuccess: (answer) => {
              const refused = answer.data.find((row) => !row.ok);
              notifications.show(
                refused === undefined
                  ? { color: 'green', title: 'Receipt confirmed', message: `Your receipt of ${payload.payload_reference} is recorded in its audit trail.` }
                  : { color: 'red', title: 'Receipt not confirmed', message: refused.message ?? 'The server refused it.' },
              );
            },
          },
        )
      }
    >
      {confirmed ? 'Confirm receipt again' : 'Confirm receipt'}
    </PermittedButton>
  );
}
