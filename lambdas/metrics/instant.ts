import * as z from 'zod';

/** Any ISO 8601 instant (or a Date) as a Date; an unreadable one is an issue, not an Invalid Date. */
export const Instant = z.union([z.date(), z.string()]).transform((value, context) => {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    context.addIssue({ code: 'custom', message: 'Must be a valid time' });
    return z.NEVER;
  }
  return date;
});
