import { ConditionFailedError } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import type { UploadDependencies, UploadingDevice } from '../../device-data/public.ts';

/**
 * The device's ledger watermark (ledger-entry.ts readLedgerWatermark): `ledger_reported_at` is now, and
 * `ledger_covered_to` moves forward only (a report delivered late never pulls it back). Conditional on the device
 * existing: a report never creates a device.
 */
export async function recordLedgerWatermark(deps: UploadDependencies, device: UploadingDevice, coveredTo: string, now: string): Promise<void> {
  const key = keys.device.key(device.client, device.deviceReference);
  try {
    await deps.table.update(
      key,
      { set: { ledger_covered_to: coveredTo, ledger_reported_at: now } },
      {
        condition: {
          kind: 'expression',
          expression: 'attribute_exists(#pk) AND (attribute_not_exists(#c) OR #c < :c)',
          names: { '#pk': 'pk', '#c': 'ledger_covered_to' },
          values: { ':c': coveredTo },
        },
      },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // It covers as far already (or the device is gone: then this fails too, and the report has nothing to mark).
    try {
      await deps.table.update(key, { set: { ledger_reported_at: now } }, { condition: { kind: 'item-exists' } });
    } catch (inner) {
      if (!(inner instanceof ConditionFailedError)) throw inner;
    }
  }
}
