import * as z from 'zod';
import { LegalHoldTargetType } from '../../constants/account.ts';
import { text } from '../fields.ts';

/**
 * An active legal hold a record falls under, as the record's own response names it (a device user's, portal user's,
 * device's or recording's `held_by`): the hold is found by its target type and target
 * (`account/legal_holds/{target_type}/{target}`). Absent when nothing holds the record.
 */
export const HeldBy = z.object({
  target_type: LegalHoldTargetType,
  target: z.string(),
});
export type HeldBy = z.infer<typeof HeldBy>;

/** The optional field every held-able entity carries. */
export const heldByField = { held_by: z.array(HeldBy).optional() };

/**
 * Legal hold target in a path: a portal user or device user reference. Here, not with the legal hold in
 * account-data.ts, because every endpoint group's path parameters name it (endpoints/params.ts), and that module's
 * schemas would otherwise be built at every function's start.
 */
export const LegalHoldTarget = text(3, 255);
