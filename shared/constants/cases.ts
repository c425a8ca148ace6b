import * as z from 'zod';

/**
 * Cases (matters): a defined set of people, counterparties, a period and payload types, seen only by the case team
 * (docs/cases.md). The bounds keep a case one table item well under DynamoDB's 400 KB and a request's validation cheap.
 */

/** Device users and portal users a case names, each at most this many. */
export const CASE_CUSTODIANS_MAX = 500;
/**
 * Device users a collect-and-hold case holds in all. Each hold is placed (and, at the closing, its release asked for)
 * one after another inside the request, each a few reads and writes, its object walk started and its activity
 * recorded: 50 of them took over 30 seconds on the local stack (past an API request's 29), so the bound is 10, which
 * test/integration/cases.test.ts places and releases and times. A larger matter holds its people on the legal holds
 * page, or opens without collect and hold.
 */
export const CASE_HOLDS_MAX = 10;
/** Counterparty numbers a case names. */
export const CASE_COUNTERPARTY_NUMBERS_MAX = 100;
/** Portal users on a case team: one seat item each, written with the case in one transaction (at most 100 writes). */
export const CASE_TEAM_MAX = 50;
/** A case's title and description, in characters. */
export const CASE_TITLE_MAX = 200;
export const CASE_DESCRIPTION_MAX = 4000;

/** An Open case may change (team, custodians, period, types); a Closed one is kept as it was when closed. */
export const CASE_STATES = ['Open', 'Closed'] as const;
export const CaseState = z.enum(CASE_STATES);
export type CaseState = z.infer<typeof CaseState>;

/**
 * What became of a legal hold the case placed (collect and hold) once the case closed:
 * - `Active`: the case is open; the hold is in force;
 * - `Released`: closing the case released it;
 * - `AwaitingApproval`: closing the case asked for its release, which waits for a second approver;
 * - `KeptByOther`: someone (or another open case) holds the same person: closing this case left the hold in force;
 * - `AlreadyReleased`: someone released the hold before the case closed.
 */
export const CASE_HOLD_STATES = ['Active', 'Released', 'AwaitingApproval', 'KeptByOther', 'AlreadyReleased'] as const;
export const CaseHoldState = z.enum(CASE_HOLD_STATES);
export type CaseHoldState = z.infer<typeof CaseHoldState>;
