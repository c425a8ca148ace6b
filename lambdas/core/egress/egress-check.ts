import { ConfigError, getConfig } from '../config.ts';
import { checkEgress, dnsResolver, egressAllowList, type EgressCheck, type EgressVerdict } from './egress-policy.ts';

let memo: { entries: string; check: EgressCheck } | undefined;

/** The egress check for an allow-list (EGRESS_ALLOW, empty in AWS): the DNS resolver and those exceptions. */
export function egressCheckOf(allow: readonly string[]): EgressCheck {
  const key = allow.join(',');
  if (memo?.entries !== key) memo = { entries: key, check: { resolve: dnsResolver, allowList: egressAllowList(allow) } };
  return memo.check;
}

/**
 * The process's egress check, from its configuration. Without a readable configuration (unit tests) nothing is
 * excepted: the failure can only make the policy stricter.
 */
export function processEgressCheck(): EgressCheck {
  let allow: readonly string[] = [];
  try {
    allow = getConfig().EGRESS_ALLOW;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  return egressCheckOf(allow);
}

/**
 * The check at save time: refuses a host that resolves to (or is written as) a non-public address. A name that does
 * not resolve yet is accepted here (a customer may save before their DNS is live); every connection checks again and
 * refuses it then.
 */
export async function refusedAtSave(host: string, port: number, check: EgressCheck = processEgressCheck()): Promise<boolean> {
  const verdict: EgressVerdict & { unresolved?: boolean } = await checkEgress(host, port, check);
  return !verdict.allowed && verdict.unresolved !== true;
}
