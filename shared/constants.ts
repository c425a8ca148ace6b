/** Every enum and constant of spec points 4 and 9, as const tuples with matching zod enums. */
export * from './constants/payloads.ts';
export * from './constants/alerts.ts';
export * from './constants/devices.ts';
export * from './constants/account.ts';
export * from './constants/limits.ts';
