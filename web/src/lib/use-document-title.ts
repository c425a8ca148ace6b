import { useEffect } from 'react';

/** Sets the tab title to `<page> · Verity` (or `Verity` alone); screen-reader users hear it on navigation. */
export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = page ? `${page} · Verity` : 'Verity';
  }, [page]);
}
