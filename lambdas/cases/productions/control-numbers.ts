import type { Dependencies } from '#core/dependencies.ts';
import { productionKeys } from '#core/store/entities/production.ts';

/** Digits of a control number after its prefix: `ABC00000001`. */
export const CONTROL_DIGITS = 8;
export const CONTROL_NUMBER_MAX = 10 ** CONTROL_DIGITS - 1;

/** A control number as printed: the prefix and the number zero-padded to eight digits. */
export const controlNumber = (prefix: string, number: number): string => `${prefix}${String(number).padStart(CONTROL_DIGITS, '0')}`;

/**
 * Reserves `count` consecutive control numbers for a production and answers the first. A case's productions take
 * their blocks from the case's counter with one atomic ADD, so numbering continues across them and two productions
 * running at once never share a number; a production of a search numbers from 1.
 */
export async function reserveControlBlock(deps: Pick<Dependencies, 'table'>, client: string, caseReference: string | undefined, count: number): Promise<number> {
  if (caseReference === undefined) return 1;
  const key = productionKeys.controlCounter(client, caseReference);
  const stored = await deps.table.update(key, { set: { entity: 'ProductionControlCounter', client, case_reference: caseReference }, add: { last_control_number: count } });
  const last = Number(stored?.last_control_number ?? count);
  if (last > CONTROL_NUMBER_MAX) throw new Error(`The case's control numbers would pass ${CONTROL_NUMBER_MAX}`);
  return last - count + 1;
}
