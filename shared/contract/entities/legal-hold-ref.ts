import * as z from 'zod';
import { LegalHoldTargetType } from '../../constants/account.ts';

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
