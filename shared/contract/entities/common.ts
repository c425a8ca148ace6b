import * as z from 'zod';
import { Actor } from './actor.ts';

/**
 * Timestamps on the wire are ISO 8601 strings. Entities we write use `toISOString()` (always with `T` and `Z`);
 * responses accept any string so that legacy records written in the spec's looser DateTimeIso form still pass.
 */
export const Timestamp = z.string();
export type Timestamp = z.infer<typeof Timestamp>;

/** Fields most admin entities carry: keyed per client, stamped with who changed them last. */
export const Audited = z.object({
  client: z.string().optional(),
  /** The actor's stable reference (./actor.ts); `updated_by_actor` names them as they were then. */
  updated_by: z.string().optional(),
  updated_by_actor: Actor.optional(),
  updated_at: Timestamp.optional(),
});

/** A paginated list: `last_key` is an opaque cursor (absent on the last page). */
export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.int().min(0),
    last_key: z.string().optional(),
    data: z.array(item),
  });

/** The count-only variant of a list (`result_type=total`). */
export const CountOnly = z.object({ count: z.int().min(0) });
export type CountOnly = z.infer<typeof CountOnly>;

/** A list endpoint answers a page, or only the count when `result_type=total`. */
export const pageOrTotal = <T extends z.ZodType>(item: T) => z.union([paginated(item), CountOnly]);

/** The body of every error response: HTTP status and one `path: message` line per problem (joined by newlines). */
export const ErrorBody = z.object({ error_code: z.int(), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Token exchange response (OAuth2 code or refresh token). */
export const TokenExchangeResponse = z.object({
  id_token: z.string(),
  refresh_token: z.string().optional(),
  expires_in: z.int(),
});
export type TokenExchangeResponse = z.infer<typeof TokenExchangeResponse>;

/** URL response; the login-URL response also names the identity provider's client. */
export const UrlResponse = z.object({
  url: z.string(),
  client_id: z.string().optional(),
  user_pool_id: z.string().optional(),
});
export type UrlResponse = z.infer<typeof UrlResponse>;

/** The tenant key a device wraps payload keys with. */
export const AuthenticationResponse = z.object({ key_id: z.string(), kek: z.string() });
export type AuthenticationResponse = z.infer<typeof AuthenticationResponse>;

/** Terms the user must accept (terms guard). */
export const PolicyResponse = z.object({ valid_from: Timestamp, termsAndConditions: z.string() });
export type PolicyResponse = z.infer<typeof PolicyResponse>;

/**
 * The current terms of use and whether the signed-in user has accepted THESE terms (`GET`/`PUT terms`): `accepted_at`
 * is when they first did; an acceptance of earlier terms does not count.
 */
export const TermsStatus = PolicyResponse.extend({ accepted: z.boolean(), accepted_at: Timestamp.optional() });
export type TermsStatus = z.infer<typeof TermsStatus>;

/** A short-lived pre-signed link to a payload's data. */
export const PayloadDataResponse = z.object({ s3_url: z.string().optional() });
export type PayloadDataResponse = z.infer<typeof PayloadDataResponse>;

/** A pre-signed upload link. */
export const UploadResponse = z.object({ upload_url: z.string() });
export type UploadResponse = z.infer<typeof UploadResponse>;

/** Answer of deletes and actions that return nothing else. */
export const OkResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponse>;

