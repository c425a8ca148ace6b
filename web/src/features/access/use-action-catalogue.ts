import { useQuery } from '@tanstack/react-query';

/**
 * The action catalogue lives in the contract registry, which holds every endpoint's schema: it is imported lazily, by
 * the role editor's screens only, so its chunk loads when the editor opens and never with the rest of the portal.
 * A tenant's role editor offers the tenant's actions only (no device or internal ones: see TENANT_ACTION_CATALOGUE).
 */
export function useActionCatalogue() {
  const query = useQuery({
    queryKey: ['action-catalogue'],
    queryFn: async () => (await import('#shared/contract/registry.ts')).TENANT_ACTION_CATALOGUE,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { catalogue: query.data, error: query.error };
}
