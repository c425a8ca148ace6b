import * as z from 'zod';
import { CountryCode } from '../fields.ts';
import { Timestamp } from './common.ts';

/** A mobile carrier seen in payload carrier metadata, with the clients whose devices used it. */
export const Carrier = z.object({
  carrier_name: z.string(),
  carrier_code: z.string(),
  first_seen: Timestamp.optional(),
  last_seen: Timestamp.optional(),
  clients: z.array(z.string()).default([]),
});
export type Carrier = z.infer<typeof Carrier>;

export const Country = z.object({
  country_name: z.string(),
  country_code: CountryCode,
  carriers: z.array(Carrier).default([]),
});
export type Country = z.infer<typeof Country>;
