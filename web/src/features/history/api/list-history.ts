import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import type { VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET history/{entity}/{reference}`: the earlier versions of one record, newest first (cursor). */
export const listHistory = endpointOf(auditEndpoints, 'admin.history.list');

/** Versions per page: a record is rarely changed often, and "Show older" asks for the next ones. */
const HISTORY_PAGE_SIZE = '10';

/**
 * One record's versions, a page at a time. Always fetched afresh when the panel opens (staleTime 0): a change just
 * saved on the screen must show as a version, never a cached history without it.
 */
export function useRecordHistory(entity: VersionedEntity, reference: string, enabled: boolean) {
  return useCursorList(listHistory, { params: { entity, reference }, query: { limit: HISTORY_PAGE_SIZE } }, { enabled, staleTime: 0 });
}
