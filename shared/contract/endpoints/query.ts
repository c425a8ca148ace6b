import * as z from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../constants/limits.ts';
import { ResultType } from '../../constants/devices.ts';
import { DateTimeParam, queryInt, QueryBoolean, text } from '../fields.ts';
import { itemsBetween, MESSAGES } from '../messages.ts';

/**
 * Query building blocks. Query values arrive as strings: numbers and booleans are coerced ('true'/'false' only),
 * and every query object is strict, so a misspelt parameter is a 400 rather than silently ignored.
 */

/**
 * Pagination: `last_key` is the opaque cursor of the previous page; `limit` is the page size. The spec leaves page
 * sizes "not shown": we decide 1 to 100, default 50 (see PAGE_SIZE_DEFAULT).
 */
export const pageQuery = {
  last_key: text(1, 2048).optional(),
  limit: queryInt(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  /** page (default) or total: the count only. */
  result_type: ResultType.default('page'),
};

/** A date range on a query: `from` and `to` as DateTimeParam (YYYY-MM-DD with optional -HHMMSS). */
export const dateRangeQuery = { from: DateTimeParam.optional(), to: DateTimeParam.optional() };

/** Active-only flag: true lists only activated devices or onboarded device users. */
export const activeOnlyQuery = { active_only: QueryBoolean.optional() };

/**
 * A comma-delimited list in one query value (`a,b,c`), or the same key repeated (the router may give an array).
 * Entries are trimmed; empty entries are dropped.
 */
export const commaList = <T extends z.ZodType>(item: T, min = 1, max = 100) =>
  z.preprocess(
    (value) =>
      (Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '')
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0),
    z
      .array(item)
      .min(min, { error: itemsBetween(min, max) })
      .max(max, { error: itemsBetween(min, max) })
      .refine((list) => new Set(list).size === list.length, { error: MESSAGES.unique }),
  );

/**
 * Lists of named things (roles, groups, tag definitions): `starts_with` keeps those whose reference starts with it,
 * case-sensitive as references are. The store narrows its sort key, so the filter still reads one Query.
 */
export const referenceFilterQuery = { starts_with: text(1, 255).optional() };

/** A strict list query with paging plus the given filters. */
export const listQuery = <S extends z.ZodRawShape>(filters: S) => z.strictObject({ ...pageQuery, ...filters });
