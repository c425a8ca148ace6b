import { useCallback, useMemo, useState } from 'react';

/** The API's bound on one bulk request (spec: bulk limit 100; supervision's bulk review takes the same). */
export const BULK_SELECTION_LIMIT = 100;

/** Rows picked for a bulk action: at most BULK_SELECTION_LIMIT (the API's bound), in the order picked. */
export interface Selection {
  selected: readonly string[];
  isSelected: (reference: string) => boolean;
  isFull: boolean;
  toggle: (reference: string) => void;
  /** Picks the given rows (in order) until the limit; keeps what was already picked. */
  addAll: (references: readonly string[]) => void;
  clear: () => void;
}

export function useSelection(): Selection {
  const [selected, setSelected] = useState<readonly string[]>([]);
  const set = useMemo(() => new Set(selected), [selected]);
  const toggle = useCallback(
    (reference: string) =>
      setSelected((current) =>
        current.includes(reference) ? current.filter((entry) => entry !== reference) : current.length >= BULK_SELECTION_LIMIT ? current : [...current, reference],
      ),
    [],
  );
  const addAll = useCallback(
    (references: readonly string[]) =>
      setSelected((current) => {
        const next = [...current];
        for (const reference of references) {
          if (next.length >= BULK_SELECTION_LIMIT) break;
          if (!next.includes(reference)) next.push(reference);
        }
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setSelected([]), []);
  return { selected, isSelected: (reference) => set.has(reference), isFull: selected.length >= BULK_SELECTION_LIMIT, toggle, addAll, clear };
}
