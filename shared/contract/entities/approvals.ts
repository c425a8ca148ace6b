import * as z from 'zod';
import { LegalHoldTargetType } from '../../constants/account.ts';
import { text } from '../fields.ts';
import { RetentionPolicyRequest } from './account-data.ts';
import { Actor } from './actor.ts';
import { Timestamp } from './common.ts';

/**
 * Four eyes on what shortens a record's life (docs/decisions.md "Four eyes"): releasing a legal hold, or a retention
 * policy change that shortens a period or removes a regulatory rule, is stored as a pending change and takes effect
 * only when a second person holding the same permission approves it.
 */

/** What a pending change does when approved. */
export const APPROVAL_KINDS = ['LegalHoldRelease', 'RetentionPolicyChange'] as const;
export const ApprovalKind = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

/** Pending until a second person approves or rejects it, or until it expires unapproved. */
export const APPROVAL_STATUSES = ['Pending', 'Approved', 'Rejected', 'Expired'] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** A pending change expires unapproved this many days after it was requested. */
export const APPROVAL_EXPIRY_DAYS = 7;

export const PendingChange = z.object({
  approval_reference: z.string(),
  kind: ApprovalKind,
  status: ApprovalStatus,
  /** The permission the change needs: its requester held it, and so must its approver. */
  action: z.string(),
  /** For a hold release: the hold's target. */
  target_type: LegalHoldTargetType.optional(),
  target: z.string().optional(),
  /** For a retention change: the policy as requested, applied whole on approval. */
  retention_policy: RetentionPolicyRequest.optional(),
  /** What the change shortens, one line each, in words ("PayloadData Call: deleted after 30 days instead of 2,557"). */
  shortens: z.array(z.string()),
  reason: z.string().optional(),
  requested_by: z.string(),
  requested_by_actor: Actor,
  requested_at: Timestamp,
  expires_at: Timestamp,
  /** Who approved or rejected it, and when; an expiry names nobody and sets only `decided_at`. */
  decided_by: z.string().optional(),
  decided_by_actor: Actor.optional(),
  decided_at: Timestamp.optional(),
  /** Why it was rejected, when the person who rejected it said. */
  decision_reason: z.string().optional(),
});
export type PendingChange = z.infer<typeof PendingChange>;

/** `POST approvals/{approval_reference}/reject` may say why; approving needs no body. */
export const ApprovalDecision = z.strictObject({ reason: text(1, 500).optional() });
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;
