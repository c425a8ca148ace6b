import { keys } from '#core/store/keys.ts';

/** What a bench payload varies in; everything else is a processed, on-time, non-legacy recording. */
export interface BenchPayload {
  reference: string;
  device: string;
  type: string;
  /** ISO time of the recording (also its upload, processing and update time). */
  time: string;
  allNumbers?: string;
}

/**
 * A processed payload item as processing leaves it, with the store's own key builders, for the benches that need a
 * tenant full of recordings without sealing and uploading each one.
 */
export function processedPayloadItem(client: string, payload: BenchPayload) {
  const { reference, device, type, time } = payload;
  return {
    ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: device }),
    client,
    device_reference: device,
    payload_reference: reference,
    payload_type: type,
    payload_state: 'Processed',
    payload_time: time,
    uploaded_at: time,
    processed_at: time,
    updated_at: time,
    updated_by: 'bench',
    is_late: false,
    is_legacy: false,
    ...(payload.allNumbers === undefined ? {} : { all_numbers: payload.allNumbers }),
  };
}
