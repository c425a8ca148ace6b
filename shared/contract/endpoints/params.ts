import * as z from 'zod';
import { LegalHoldTargetType, SupportAccessApprovalState } from '../../constants/account.ts';
import { MetricScope } from '../../constants/devices.ts';
import { SupervisionReport } from '../../constants/supervision.ts';
import {
  AppReference,
  ClientId,
  DeviceReference,
  DeviceUserReference,
  GroupReference,
  PayloadReference,
  RoleReference,
  SupervisionPolicyReference,
  TagKey,
  text,
  TransferConfigReference,
  Ulid,
} from '../fields.ts';
import { LegalHoldTarget } from '../entities/legal-hold-ref.ts';

/**
 * Path parameter schemas, one per placeholder name, so every endpoint validates a name the same way.
 * `client` is listed for documentation (OpenAPI) only: the router checks the path's `{client}` itself, so no
 * endpoint's params include it, not even the internal console's `/clients/{client}/...`.
 */
export const P = {
  client: ClientId,
  app_reference: AppReference,
  alert_reference: Ulid,
  device_reference: DeviceReference,
  device_user_reference: DeviceUserReference,
  group_reference: GroupReference,
  role_reference: RoleReference,
  tag_key: TagKey,
  request_reference: Ulid,
  approval_status: SupportAccessApprovalState,
  scope: MetricScope,
  target_type: LegalHoldTargetType,
  target: LegalHoldTarget,
  payload_reference: PayloadReference,
  comment_id: Ulid,
  thread_id: text(1, 255),
  transfer_config_reference: TransferConfigReference,
  transfer_id: Ulid,
  command_reference: Ulid,
  migration_reference: Ulid,
  policy_reference: SupervisionPolicyReference,
  /** A supervision item is the review of one recording: its reference is the recording's. */
  item_reference: PayloadReference,
  report: SupervisionReport,
  /** A case (matter): its ULID. */
  case_ref: Ulid,
  /** A production of a case or a search: its ULID. */
  production_reference: Ulid,
  /** A pending change awaiting a second approver (four eyes): its ULID. */
  approval_reference: Ulid,
  /** An erasure request (GDPR Art 17): its ULID. */
  erasure_request_reference: Ulid,
} as const;

type Names = keyof typeof P;

/** A strict params object holding the named placeholders. */
export const params = <const N extends Names>(...names: N[]) =>
  z.strictObject(Object.fromEntries(names.map((name) => [name, P[name]])) as { [K in N]: (typeof P)[K] });
