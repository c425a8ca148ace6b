import type { Endpoint } from '#shared/contract/endpoint.ts';

/** Spec point 8's wording for a call to an endpoint the contract does not declare. */
export const MISSING_ENDPOINT_MESSAGE = 'Cannot find metadata for endpoint';

/**
 * Picks one endpoint from a contract group by its id, keeping its exact type (params, query, body, response).
 *
 * Screens pick from the group module (`deviceEndpoints`), not from the whole registry: importing the registry would
 * pull every schema of every surface into the first chunk. The throw only fires if a group and an id drift apart at
 * run time; the type already refuses an id the group lacks.
 */
export function endpointOf<const List extends readonly Endpoint[], Id extends List[number]['id']>(
  list: List,
  id: Id,
): Extract<List[number], { id: Id }> {
  const endpoint = list.find((candidate) => candidate.id === id);
  if (endpoint === undefined) throw new Error(`${MISSING_ENDPOINT_MESSAGE}: ${id}`);
  return endpoint as Extract<List[number], { id: Id }>;
}
