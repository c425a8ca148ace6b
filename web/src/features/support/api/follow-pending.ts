import { useEffect, useRef } from 'react';

/** While any request waits for a client's decision the lists ask again this often, so an approval shows by itself. */
export const WAITING_REFRESH_MS = 10_000;

/**
 * Refetches a list when the number of waiting requests changes: a client's decision takes a request out of
 * `pending`, and the list shown must follow even when its own timer stops with the last waiting request.
 */
export function useFollowPending(pending: number, refetch: () => unknown): void {
  const previous = useRef(pending);
  useEffect(() => {
    if (previous.current === pending) return;
    previous.current = pending;
    void refetch();
  }, [pending, refetch]);
}
