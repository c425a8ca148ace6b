import { formatIssues } from '#shared/contract/messages.ts';
import { ClientAppRequest, type ClientAppConfiguration } from '#shared/contract/entities/client-apps.ts';
import { AppReference } from '#shared/contract/fields.ts';

export interface AppFormValues {
  reference: string;
  issuer: string;
  audience: string;
  jwksUri: string;
  group: string;
  roles: string[];
  cidrRanges: string[];
}

export const EMPTY_APP_FORM: AppFormValues = { reference: '', issuer: 'https://', audience: '', jwksUri: 'https://', group: '', roles: [], cidrRanges: [] };

export function appFormValuesOf(app: ClientAppConfiguration): AppFormValues {
  return {
    reference: app.app_reference,
    issuer: app.oidc_config.issuer,
    audience: app.oidc_config.audience,
    jwksUri: app.oidc_config.jwks_uri,
    group: app.group ?? '',
    roles: [...app.roles],
    cidrRanges: [...app.cidr_ranges],
  };
}

/** Which wire path each field stands for: the server's `path: message` lines land under these fields. */
export const APP_FIELD_PATHS = {
  reference: 'params.app_reference',
  issuer: 'body.oidc_config.issuer',
  audience: 'body.oidc_config.audience',
  jwksUri: 'body.oidc_config.jwks_uri',
  group: 'body.group',
  roles: 'body.roles',
  cidrRanges: 'body.cidr_ranges',
} as const;

/**
 * The request, checked with the contract's own schemas before it is sent, so the form says what the server would
 * (same paths, same messages) without a round trip.
 */
export function checkAppForm(values: AppFormValues): { ok: true; reference: string; body: ClientAppRequest } | { ok: false; lines: string[] } {
  const reference = AppReference.safeParse(values.reference);
  const body = ClientAppRequest.safeParse({
    oidc_config: { issuer: values.issuer.trim(), audience: values.audience.trim(), jwks_uri: values.jwksUri.trim() },
    ...(values.group.trim() === '' ? {} : { group: values.group.trim() }),
    roles: values.roles,
    cidr_ranges: values.cidrRanges,
  });
  const lines = [...(reference.success ? [] : formatIssues(reference.error, 'params.app_reference')), ...(body.success ? [] : formatIssues(body.error, 'body'))];
  if (!reference.success || !body.success) return { ok: false, lines };
  return { ok: true, reference: reference.data, body: body.data };
}
