import * as z from 'zod';
import { heldByField } from './legal-hold-ref.ts';
import { Service } from '../../constants/devices.ts';
import { DeviceUserReference, Email, ExpectedDeviceCount, FirstName, GroupReference, ServiceList, Surname } from '../fields.ts';
import { Timestamp } from './common.ts';
import { Actor } from './actor.ts';

export const DeviceUser = z.object({
  client: z.string().optional(),
  device_user_reference: z.string(),
  group: z.string().optional(),
  services: z.array(Service).default([]),
  expected_device_count: z.int().min(0).default(1),
  email: z.string().optional(),
  first_name: z.string().optional(),
  surname: z.string().optional(),
  /** Onboarded (true) or offboarded (false). */
  is_active: z.boolean(),
  onboard_date: Timestamp.optional(),
  offboard_date: Timestamp.optional(),
  is_legacy: z.boolean().default(false),
  updated_at: Timestamp.optional(),
  updated_by: z.string().optional(),
  updated_by_actor: Actor.optional(),
  /** Active legal holds this record falls under (docs/data-model.md "Legal holds shown where the held thing appears"). */
  ...heldByField,
});
export type DeviceUser = z.infer<typeof DeviceUser>;

/** Create (onboard) or replace a device user; the reference comes from the path. */
export const DeviceUserRequest = z.strictObject({
  /** The path's device_user_reference, which the spec's entity carries: may be repeated here, refused when it differs. */
  device_user_reference: DeviceUserReference.optional(),
  group: GroupReference,
  services: ServiceList,
  expected_device_count: ExpectedDeviceCount,
  email: Email,
  first_name: FirstName,
  surname: Surname,
  /** false offboards; true (re-)onboards and clears offboard_date. */
  is_active: z.boolean().default(true),
});
export type DeviceUserRequest = z.infer<typeof DeviceUserRequest>;
