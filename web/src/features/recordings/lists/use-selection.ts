import { useCallback, useMemo, useState } from 'react';
import { BULK_LIMIT } from '../api/bulk-data-links.ts';

/** Rows picked for a bulk action: at most BULK_LIMIT (the API's bound), in the order picked. */
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
        current.includes(reference) ? current.filter((entry) => entry !== reference) : current.length >= BULK_LIMIT ? current : [...current, reference],
      ),
    [],
  );
  const addAll = useCallback(
    (references: readonly string[]) =>
      setSelected((current) => {
        const next = [...current];
        for (const reference of references) {
          if (next.length >= BULK_LIMIT) break;
          if (!next.includes(reference)) next.push(reference);
        }
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setSelected([]), []);
  return { selected, isSelected: (reference) => set.has(reference), isFull: selected.length >= BULK_LIMIT, toggle, addAll, clear };
}
