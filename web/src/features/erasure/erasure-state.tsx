import { Badge, Progress, Stack, Text } from '@mantine/core';
import type { ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { ERASURE_STATE_WORDS, progressOf } from './erasure-model.ts';

/** A request's state as a badge. */
export function ErasureStateBadge({ state }: { state: ErasureRequest['erasure_state'] }) {
  const words = ERASURE_STATE_WORDS[state];
  return (
    <Badge color={words.color} variant="light" tt="none" miw="max-content">
      {words.label}
    </Badge>
  );
}

/** A request's state as a badge, with its job's bar and words while one runs (the list's cell). */
export function ErasureStateCell({ request }: { request: Pick<ErasureRequest, 'erasure_state' | 'progress'> }) {
  const progress = progressOf(request);
  return (
    <Stack gap={4} miw={160}>
      <ErasureStateBadge state={request.erasure_state} />
      {progress !== undefined && (
        <>
          <Progress value={progress.percent ?? 100} striped animated aria-label={progress.label} size="sm" />
          <Text size="xs">{progress.label}</Text>
        </>
      )}
    </Stack>
  );
}
