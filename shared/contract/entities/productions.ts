import * as z from 'zod';
import { PayloadType } from '#shared/constants/payloads.ts';
import { itemsAtLeast, itemsAtMost } from '../messages.ts';
import { DateTimeIso, DeviceUserReference, PhoneNumberLocal, TransferConfigReference } from '../fields.ts';
import { Actor } from './actor.ts';
import { Timestamp } from './common.ts';

/**
 * Productions: a set of records handed over in the form review platforms load (natives, EML, EDRM XML 1.2, Concordance
 * DAT, a manifest with every file's SHA-256 and the chain of custody). docs/productions.md describes the layout.
 */

/** Custodians one production may name: a matter names a handful of people; the bound keeps a request small. */
export const PRODUCTION_CUSTODIANS_MAX = 100;
/** Counterparty numbers one production may name. */
export const PRODUCTION_NUMBERS_MAX = 100;
/** Documents one production may hold: above it the request is refused (narrow the period or split it). */
export const PRODUCTION_DOCUMENTS_MAX = 10_000;
/** How long a download link lives. */
export const PRODUCTION_LINK_SECONDS = 15 * 60;

/**
 * A control-number prefix: letters, digits, `_` and `-`, 1 to 20 characters. It names files in the production, so
 * anything that is a path character (`/`, `\`, `.`, spaces, control characters) is refused.
 */
export const ControlPrefix = z
  .string()
  .min(1, { error: 'Must be 1 to 20 characters' })
  .max(20, { error: 'Must be 1 to 20 characters' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'Only letters, digits, _ and - are allowed' });

/** Where a production goes: a short-lived download link, or one of the tenant's transfer configurations (S3, SFTP). */
export const ProductionDestination = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Transfer'), transfer_config_reference: TransferConfigReference }),
  z.object({ type: z.literal('Download') }),
]);
export type ProductionDestination = z.infer<typeof ProductionDestination>;

/** What a production selects: custodians (device users), counterparty numbers (any of them), a period and payload types. */
export const ProductionCriteria = z.object({
  custodians: z
    .array(DeviceUserReference)
    .max(PRODUCTION_CUSTODIANS_MAX, { error: itemsAtMost(PRODUCTION_CUSTODIANS_MAX) })
    .optional(),
  counterparty_numbers: z
    .array(PhoneNumberLocal)
    .max(PRODUCTION_NUMBERS_MAX, { error: itemsAtMost(PRODUCTION_NUMBERS_MAX) })
    .optional(),
  from: DateTimeIso,
  to: DateTimeIso,
  payload_types: z.array(PayloadType).min(1, { error: itemsAtLeast(1) }).max(20, { error: itemsAtMost(20) }).optional(),
});
export type ProductionCriteria = z.infer<typeof ProductionCriteria>;

export const PRODUCTION_STATES = ['Pending', 'InProgress', 'Succeeded', 'Failed'] as const;
export const ProductionState = z.enum(PRODUCTION_STATES);
export type ProductionState = z.infer<typeof ProductionState>;

export const PRODUCTION_KINDS = ['Case', 'Search', 'ClientCopy'] as const;
export const ProductionKind = z.enum(PRODUCTION_KINDS);

/** A document that could not be produced (its recording did not verify, or is gone): the production fails naming it. */
export const ProductionFailure = z.object({ payload_reference: z.string(), reason: z.string() });

/** One production as the log and its progress show it. */
export const Production = z.object({
  client: z.string(),
  production_reference: z.string(),
  production_kind: ProductionKind,
  case_reference: z.string().optional(),
  criteria: ProductionCriteria,
  control_prefix: ControlPrefix,
  destination: ProductionDestination,
  production_state: ProductionState,
  documents_total: z.int().min(0).optional(),
  documents_done: z.int().min(0),
  failures: z.array(ProductionFailure),
  /** The control numbers given, as printed (`ABC00000001` to `ABC00000040`). */
  control_first: z.string().optional(),
  control_last: z.string().optional(),
  /** The delivered package's files (names at the destination). */
  delivered_files: z.array(z.string()).optional(),
  error_message: z.string().optional(),
  created_at: Timestamp,
  /** Who asked for it, by their stable reference (./actor.ts); `created_by_actor` names them as they were then. */
  created_by: z.string(),
  created_by_actor: Actor.optional(),
  started_at: Timestamp.optional(),
  completed_at: Timestamp.optional(),
});
export type Production = z.infer<typeof Production>;

/** `POST cases/{case_reference}/productions`: the case gives the criteria. */
export const CreateCaseProduction = z.strictObject({
  control_prefix: ControlPrefix,
  destination: ProductionDestination,
});

/** `POST productions`: a search production, or a client copy (by counterparty number only). */
export const CreateSearchProduction = z.strictObject({
  control_prefix: ControlPrefix,
  destination: ProductionDestination,
  client_copy: z.boolean().optional(),
  criteria: ProductionCriteria,
});

/**
 * A production's download: a short-lived link to its archive; a production delivered in parts (docs/productions.md
 * "Parts") answers its first part here and every part, in order, in `parts`.
 */
export const ProductionDownload = z.object({
  url: z.string(),
  expires_at: Timestamp,
  file_name: z.string(),
  parts: z.array(z.object({ url: z.string(), file_name: z.string() })).optional(),
});
export type ProductionDownload = z.infer<typeof ProductionDownload>;
