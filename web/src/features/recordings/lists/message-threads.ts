import type { Payload } from '#shared/contract/entities/payloads.ts';

/**
 * Messages grouped by conversation: a device's thread (its `thread_id`, or the other parties when the app sent
 * none). Threads keep the order of their newest loaded message; messages within a thread stay newest first.
 */
export function threadKeyOf(row: Payload): string {
  return `${row.device_reference}\u0000${row.thread_id ?? row.second_party_numbers ?? row.payload_reference}`;
}

export interface ThreadPlace {
  /** The thread's label: its other parties, else its id. */
  label: string;
  size: number;
  /** This row opens its thread in the grouped order. */
  first: boolean;
}

export function groupByThread(rows: readonly Payload[]): { rows: Payload[]; places: Map<string, ThreadPlace> } {
  const threads = new Map<string, Payload[]>();
  for (const row of rows) {
    const key = threadKeyOf(row);
    const members = threads.get(key);
    if (members === undefined) threads.set(key, [row]);
    else members.push(row);
  }
  const ordered: Payload[] = [];
  const places = new Map<string, ThreadPlace>();
  for (const members of threads.values()) {
    const [opening] = members;
    const parties = (opening?.second_party_numbers ?? '').split(',').filter((entry) => entry.length > 0).join(', ');
    const label = parties || opening?.thread_id || 'Unknown parties';
    members.forEach((row, index) => places.set(row.payload_reference, { label, size: members.length, first: index === 0 }));
    ordered.push(...members);
  }
  return { rows: ordered, places };
}
