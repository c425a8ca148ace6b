import type { EntityType } from '#shared/constants/alerts.ts';
import type { RelatedEntity as RelatedEntitySchema } from '#shared/contract/entities/alerts.ts';
import type { z } from 'zod';

type RelatedEntity = z.infer<typeof RelatedEntitySchema>;

/**
 * Links an alert carries to what it is about: `api_link` (the admin API path, tenant in it) and `page_link` (the
 * portal route). One table so every module raising alerts links the same way and the portal can follow either.
 */
const PATHS: Record<EntityType, { api: (ref: string) => string; page: (ref: string) => string }> = {
  Device: { api: (ref) => `devices/${ref}`, page: (ref) => `/dashboard/devices/${ref}` },
  DeviceUser: { api: (ref) => `users/${ref}`, page: (ref) => `/dashboard/devices/users/${ref}` },
  Migration: { api: (ref) => `migrations/${ref}`, page: (ref) => `/dashboard/account/migrations?migration=${ref}` },
  Payload: { api: (ref) => `payloads/${ref}`, page: (ref) => `/dashboard/services?payload_reference=${ref}` },
  PortalUser: { api: (ref) => `activities?portal_user=${ref}`, page: (ref) => `/dashboard/account/audit?portal_user=${ref}` },
  SupportAccessRequest: { api: (ref) => `supportaccess/${ref}`, page: (ref) => `/dashboard/account/support-access?request=${ref}` },
  Transfer: { api: (ref) => `transfers/${ref}`, page: (ref) => `/dashboard/account/transfers/${ref}` },
};

/** Both links for one entity of a tenant. The reference is URL-encoded: it may come from a device. */
export function relatedEntity(client: string, type: EntityType, reference: string): RelatedEntity {
  const paths = PATHS[type];
  const ref = encodeURIComponent(reference);
  return { api_link: `/api/v1/${encodeURIComponent(client)}/${paths.api(ref)}`, page_link: paths.page(ref) };
}

/** The searchable text of an alert's related entities (`related_entity_string`). */
export function relatedEntityString(entities: readonly RelatedEntity[]): string | undefined {
  const links = entities.map((entity) => entity.page_link ?? entity.api_link).filter((link) => link !== undefined);
  return links.length > 0 ? links.join(',') : undefined;
}
