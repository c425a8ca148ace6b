import * as z from 'zod';
import {
  CASE_COUNTERPARTY_NUMBERS_MAX,
  CASE_CUSTODIANS_MAX,
  CASE_DESCRIPTION_MAX,
  CASE_HOLDS_MAX,
  CASE_TEAM_MAX,
  CASE_TITLE_MAX,
  CaseHoldState,
  CaseState,
} from '../../constants/cases.ts';
import { PAYLOAD_TYPES, PayloadType } from '../../constants/payloads.ts';
import { DateTimeIso, DeviceUserReference, text, Ulid, UserReference } from '../fields.ts';
import { itemsBetween, MESSAGES } from '../messages.ts';
import { Actor } from './actor.ts';
import { Timestamp } from './common.ts';

/** A case's reference: a ULID the service assigns when the case is opened. */
export const CaseReference = Ulid;

/** Between `min` and `max` unique entries of `item`, with the contract's wording for each bound. */
const boundedUnique = <T extends z.ZodType>(item: T, min: number, max: number) =>
  z
    .array(item)
    .min(min, { error: itemsBetween(min, max) })
    .max(max, { error: itemsBetween(min, max) })
    .refine((list) => new Set(list).size === list.length, { error: MESSAGES.unique });

/**
 * A counterparty's number as the recordings keep theirs: a leading `+` (international form) and digits, spaces,
 * dashes, dots and brackets dropped, so `+44 (20) 7946-0000` is stored and matched as `+442079460000`. At least 3
 * digits; letters are refused (a number, not a name).
 */
export const CounterpartyNumber = text(3, 40)
  .regex(/^\+?[\d\s().-]+$/, { error: 'Must be a phone number: digits, an optional leading +, spaces, dashes, dots or brackets' })
  .transform((value) => `${value.trim().startsWith('+') ? '+' : ''}${value.replace(/\D/g, '')}`)
  .refine((value) => value.replace(/\D/g, '').length >= 3, { error: 'Must have at least 3 digits' });

/** The people a case is about: device users (their recordings) and portal users (what they wrote), by reference. */
export const CaseCustodians = z.strictObject({
  device_users: boundedUnique(DeviceUserReference, 0, CASE_CUSTODIANS_MAX).default([]),
  portal_users: boundedUnique(UserReference, 0, CASE_CUSTODIANS_MAX).default([]),
});
export type CaseCustodians = z.infer<typeof CaseCustodians>;

/** The case's period: records from `from` to `to` (inclusive), `from` not after `to`. */
export const CasePeriod = z
  .strictObject({ from: DateTimeIso, to: DateTimeIso })
  .refine((period) => Date.parse(period.from.replace(' ', 'T')) <= Date.parse(period.to.replace(' ', 'T')), {
    error: 'from must not be after to',
    path: ['from'],
  });
export type CasePeriod = z.infer<typeof CasePeriod>;

/** A legal hold the case placed on a custodian device user when it opened (collect and hold), and what became of it. */
export const CaseHold = z.object({
  target_type: z.literal('DeviceUser'),
  target: z.string(),
  placed_at: Timestamp,
  state: CaseHoldState,
  /** When closing the case released it, or asked for its release. */
  released_at: Timestamp.optional(),
  /** The pending change (four eyes) a release awaits approval in: `approvals/{approval_reference}`. */
  approval_reference: z.string().optional(),
});
export type CaseHold = z.infer<typeof CaseHold>;

const caseFields = {
  title: text(1, CASE_TITLE_MAX),
  description: text(0, CASE_DESCRIPTION_MAX),
  custodians: CaseCustodians,
  counterparty_numbers: boundedUnique(CounterpartyNumber, 0, CASE_COUNTERPARTY_NUMBERS_MAX),
  period: CasePeriod,
  payload_types: boundedUnique(PayloadType, 1, PAYLOAD_TYPES.length),
  /** Portal users who may see the case (by portal user reference); nobody else, tenant admins included. */
  team: boundedUnique(UserReference, 1, CASE_TEAM_MAX),
  /** Whether provider staff in support mode may see the case; by default they may not. */
  support_may_view: z.boolean(),
};

/** A case (matter) as the API answers it. */
export const Case = z.object({
  case_ref: CaseReference,
  ...caseFields,
  custodians: z.object({ device_users: z.array(z.string()), portal_users: z.array(z.string()) }),
  counterparty_numbers: z.array(z.string()),
  period: z.object({ from: z.string(), to: z.string() }),
  payload_types: z.array(PayloadType),
  team: z.array(z.string()),
  /** Opening the case placed a legal hold on each custodian device user. */
  collect_and_hold: z.boolean(),
  state: CaseState,
  /** The holds the case placed (collect and hold): only these are released when it closes. */
  holds: z.array(CaseHold),
  created_at: Timestamp,
  created_by: z.string(),
  created_by_actor: Actor.optional(),
  updated_at: Timestamp,
  updated_by: z.string(),
  updated_by_actor: Actor.optional(),
  closed_at: Timestamp.optional(),
  closed_by: z.string().optional(),
  closed_by_actor: Actor.optional(),
});
export type Case = z.infer<typeof Case>;

/** The refusal of a collect-and-hold case that would hold more people than CASE_HOLDS_MAX. */
export const collectAndHoldBound = `Collect and hold holds at most ${CASE_HOLDS_MAX} device users; hold more on the legal holds page`;

/** The people a case request names need at least one custodian: an empty case holds and produces nothing. */
const hasCustodian = (custodians: CaseCustodians) => custodians.device_users.length + custodians.portal_users.length > 0;

/**
 * Opens a case (`POST cases`). The caller joins the team whether or not the request names them; `collect_and_hold`
 * places a legal hold on each custodian device user in the same call.
 */
export const CaseCreateRequest = z
  .strictObject({
    ...caseFields,
    description: caseFields.description.default(''),
    counterparty_numbers: caseFields.counterparty_numbers.default([]),
    payload_types: caseFields.payload_types.default([...PAYLOAD_TYPES]),
    team: boundedUnique(UserReference, 0, CASE_TEAM_MAX - 1).default([]),
    support_may_view: z.boolean().default(false),
    collect_and_hold: z.boolean().default(false),
  })
  .superRefine((request, context) => {
    if (!hasCustodian(request.custodians)) context.addIssue({ code: 'custom', path: ['custodians'], message: 'Must name at least one device user or portal user' });
    if (request.collect_and_hold && request.custodians.device_users.length > CASE_HOLDS_MAX) {
      context.addIssue({ code: 'custom', path: ['custodians', 'device_users'], message: collectAndHoldBound });
    }
  });
export type CaseCreateRequest = z.infer<typeof CaseCreateRequest>;

/**
 * Changes an Open case (`PUT cases/{case_ref}`): the fields sent replace the case's. The team keeps at least one
 * member; custodians added to a collect-and-hold case are held at once (removed ones stay held until the case closes).
 */
export const CaseUpdateRequest = z
  .strictObject({
    title: caseFields.title.optional(),
    description: caseFields.description.optional(),
    custodians: CaseCustodians.optional(),
    counterparty_numbers: caseFields.counterparty_numbers.optional(),
    period: CasePeriod.optional(),
    payload_types: caseFields.payload_types.optional(),
    team: caseFields.team.optional(),
    support_may_view: z.boolean().optional(),
  })
  .superRefine((request, context) => {
    if (request.custodians !== undefined && !hasCustodian(request.custodians)) {
      context.addIssue({ code: 'custom', path: ['custodians'], message: 'Must name at least one device user or portal user' });
    }
  });
export type CaseUpdateRequest = z.infer<typeof CaseUpdateRequest>;

/** A portal user of the tenant as the case screens offer them (team and portal-user custodians are picked by name). */
export const CasePerson = z.object({
  user_reference: z.string(),
  first_name: z.string().optional(),
  surname: z.string().optional(),
  email: z.string().optional(),
});
export type CasePerson = z.infer<typeof CasePerson>;
