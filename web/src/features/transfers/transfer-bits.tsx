import { Badge, Progress, Stack, Text } from '@mantine/core';
import type { TransferState } from '#shared/constants/account.ts';
import type { Transferable } from '#shared/contract/entities/transfers.ts';
import { progressOf } from './transfer-progress.ts';
import { MOVING_STATES, TRANSFER_STATE_COLOURS, TRANSFER_STATE_LABELS } from './transfer-labels.ts';

/** A transfer's state as a coloured badge with its word (colour is never the only sign). */
export function TransferStateBadge({ state }: { state: TransferState }) {
  return (
    <Badge variant="light" color={TRANSFER_STATE_COLOURS[state]} miw="max-content" tt="none">
      {TRANSFER_STATE_LABELS[state]}
    </Badge>
  );
}

/** Files done (and failed) of the total as a bar, with the files and bytes in words beneath. */
export function TransferProgressBar({ transfer, label }: { transfer: Transferable; label: string }) {
  const progress = progressOf(transfer);
  return (
    <Stack gap={4} miw={180}>
      {progress.donePercent !== undefined && (
        <Progress.Root size="md" aria-label={label}>
          <Progress.Section value={progress.donePercent} color="green" aria-label={`${label}: delivered`} />
          {(progress.failedPercent ?? 0) > 0 && <Progress.Section value={progress.failedPercent ?? 0} color="red" aria-label={`${label}: failed`} />}
        </Progress.Root>
      )}
      {progress.donePercent === undefined && MOVING_STATES.has(transfer.transfer_state) && (
        <Progress value={100} striped animated color="gray" size="md" aria-label={`${label}: ${progress.words}`} />
      )}
      <Text size="xs">{progress.words}</Text>
    </Stack>
  );
}
