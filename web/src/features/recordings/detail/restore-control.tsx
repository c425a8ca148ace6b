import { Alert, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useRestorePayload } from '../api/restore-payload.ts';
import { actorName } from '../../../lib/actor-name.ts';

/** A deleted recording's notice with "Restore" (Deleted → Processed); a destroyed one says it is gone for good. */
export function RestoreControl({ payload }: { payload: Payload }) {
  const restore = useRestorePayload();
  if (payload.payload_state === 'Destroyed') {
    return (
      <Alert color="gray" variant="light" title="This recording was destroyed and cannot be restored">
        Retention destroyed it{payload.updated_at ? ` on ${formatDateTime(payload.updated_at)}` : ''} once its destroy period had passed. Destroying
        erases the recording itself for good, so nothing is left to bring back; only a deleted recording can be restored, until it is destroyed. This
        record of it is kept as retention requires, and the audit screen&apos;s disposal records show the rule that applied.
      </Alert>
    );
  }
  if (payload.payload_state !== 'Deleted') return null;
  return (
    <Alert color="orange" variant="light" title="This recording is deleted">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          Deleted {payload.updated_at ? formatDateTime(payload.updated_at) : ''}
          {payload.updated_by ? ` by ${actorName(payload.updated_by_actor, payload.updated_by)}` : ''}. It can be restored until retention destroys it.
        </Text>
        <PermittedButton
          action="payloads:Restore"
          loading={restore.isPending}
          onClick={() =>
            restore.mutate(
              { params: { payload_reference: payload.payload_reference } },
              { onSuccess: () => notifications.show({ color: 'green', title: 'Recording restored', message: `${payload.payload_reference} can be played again.` }) },
            )
          }
        >
          Restore
        </PermittedButton>
      </Group>
    </Alert>
  );
}
