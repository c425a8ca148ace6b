import * as z from 'zod';
import { heldByField } from './legal-hold-ref.ts';
import { DeviceCommandName, DeviceCommandState, Service } from '../../constants/devices.ts';
import { COMMAND_PARAM_NAME_MAX, COMMAND_PARAM_TEXT_MAX, COMMAND_PARAMS_MAX } from '../bounds.ts';
import { boundedRecord, SafeNumber } from '../fields.ts';
import { lengthAtMost } from '../messages.ts';
import { Timestamp } from './common.ts';
import { Actor } from './actor.ts';

export const DevicePhoneNumber = z.object({
  phone_number: z.string(),
  first_verified: Timestamp.optional(),
  last_verified: Timestamp.optional(),
  slot_index: z.int().min(0).optional(),
});
export type DevicePhoneNumber = z.infer<typeof DevicePhoneNumber>;

export const Device = z.object({
  client: z.string().optional(),
  device_reference: z.string(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  services: z.array(Service).default([]),
  imeis: z.array(z.string()).default([]),
  email: z.string().optional(),
  first_name: z.string().optional(),
  surname: z.string().optional(),
  last_seen: Timestamp.optional(),
  is_deactivated: z.boolean().default(false),
  deactivation_date: Timestamp.optional(),
  activated_at: Timestamp.optional(),
  is_legacy: z.boolean().default(false),
  legacy_phone_number: z.string().optional(),
  phone_numbers: z.array(DevicePhoneNumber).default([]),
  model: z.string().optional(),
  os_version: z.string().optional(),
  app_version: z.string().optional(),
  serial_number: z.string().optional(),
  fcm_token: z.string().optional(),
  installation_id: z.string().optional(),
  updated_at: Timestamp.optional(),
  updated_by: z.string().optional(),
  updated_by_actor: Actor.optional(),
  /** Active legal holds this record falls under (docs/data-model.md "Legal holds shown where the held thing appears"). */
  ...heldByField,
});
export type Device = z.infer<typeof Device>;

/** Who held a device, in which group, when. */
export const DeviceHistory = z.object({
  from: Timestamp,
  to: Timestamp.optional(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
});
export type DeviceHistory = z.infer<typeof DeviceHistory>;

export const DeviceCommand = z.object({
  command: DeviceCommandName,
  params: z.record(z.string(), z.unknown()).optional(),
  device_reference: z.string(),
  command_reference: z.string(),
  group: z.string().optional(),
  state: DeviceCommandState,
  /** Who sent it, by their stable reference (./actor.ts); `raised_by_actor` names them as they were then. */
  raised_by: z.string().optional(),
  raised_by_actor: Actor.optional(),
  sent_at: Timestamp.optional(),
  completed_at: Timestamp.optional(),
});
export type DeviceCommand = z.infer<typeof DeviceCommand>;

/**
 * Parameters of a command: at most 20 flat values, each text (at most 1000 characters), a safe number or a boolean
 * (e.g. the SMS auto-response text); names 1 to 60 characters.
 */
export const DeviceCommandParams = boundedRecord(
  z.union([z.string().max(COMMAND_PARAM_TEXT_MAX, { error: lengthAtMost(COMMAND_PARAM_TEXT_MAX) }), SafeNumber, z.boolean()]),
  COMMAND_PARAMS_MAX,
  COMMAND_PARAM_NAME_MAX,
);

export const DeviceCommandRequest = z.strictObject({
  command: DeviceCommandName,
  params: DeviceCommandParams.optional(),
});
export type DeviceCommandRequest = z.infer<typeof DeviceCommandRequest>;
