import { describe, expect, it } from 'vitest';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { createCursorCodec } from '#core/store/cursor.ts';
import { readPayload } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { createComment, listComments, recordingDuration } from './comments-service.ts';

const REF = '01J0000000000000000000PAY1';
const HIDDEN = '01J0000000000000000000PAY2';

/** A role that sees Call and SMS payloads, and comments only in group `open`. */
const commenter = {
  role_reference: 'commenter',
  permissions: [{ actions_matching: 'comments:*', conditions: [{ names_matching: 'open' }] }],
  payload_types: ['Call', 'SMS'],
  cidr_ranges: [],
  is_system: false,
} as unknown as Role;
const access = createAccessContext({ roles: [commenter], ip: undefined, isClientApp: false });

function setup() {
  const table = createMemoryTable();
  const item = (reference: string, type: string, group: string) => ({
    ...keys.payload.item('demo', { payloadReference: reference, payloadTime: '2024-05-01T00:00:00Z', deviceReference: 'd1' }),
    payload_reference: reference,
    payload_type: type,
    payload_state: 'Processed',
    device_reference: 'd1',
    group,
  });
  const deps = { table, clock: { now: () => new Date('2024-06-01T00:00:00Z') }, cursors: createCursorCodec('s'.repeat(32)) };
  return { deps, table, item };
}

/** A portal user as comments name them: by their stable reference, with their e-mail kept beside it. */
const person = (reference: string, email?: string): UserPrincipal => ({ kind: 'user', subject: reference, email, client: 'demo', groups: [], tokenIssuer: 'test' });

type Deps = ReturnType<typeof setup>['deps'];
/** The caller of a comment endpoint: the commenter acting as `principal` for the endpoint's action. */
const creating = (deps: Deps, principal: UserPrincipal) => tenantCaller(deps, 'demo', access, { action: 'comments:Create', principal });
const listing = (deps: Deps) => tenantCaller(deps, 'demo', access, { action: 'comments:List' });

describe('comments service restrictions', () => {
  it('refuses a payload of a hidden type or group, and never writes a comment for it', async () => {
    const { deps, table, item } = setup();
    await table.put(item(REF, 'Photo', 'open'));
    await table.put(item(HIDDEN, 'Call', 'secret'));
    await expect(createComment(creating(deps, person('me')), REF, { message: 'x' })).rejects.toMatchObject({ status: 403, lines: ['TypeNotAuthorised'] });
    await expect(createComment(creating(deps, person('me')), HIDDEN, { message: 'x' })).rejects.toMatchObject({ status: 403, lines: ['GroupNotAuthorised'] });
    expect((await table.query({ ...keys.comment.list('demo') })).items).toEqual([]);
  });

  it('hides comments of restricted payloads from lists and totals', async () => {
    const { deps, table, item } = setup();
    await table.put(item(REF, 'Call', 'open'));
    await createComment(creating(deps, person('me')), REF, { message: 'visible' });
    // A comment on a payload the caller may not see (written as another caller would have).
    await table.put({ ...keys.comment.item('demo', HIDDEN, { commentId: '01J00000000000000000000CMT', raisedAt: '2024-06-01T00:00:00Z' }), payload_type: 'Call', group: 'secret', comment_id: '01J00000000000000000000CMT', comment_body: 'hidden', raised_by: 'x', raised_at: '2024-06-01T00:00:00Z', comment_version: 1, is_closed: false, payload_reference: HIDDEN });
    const page = await listComments(listing(deps), { limit: 50, result_type: 'page' });
    expect('data' in page && page.data.map((comment) => comment.comment_body)).toEqual(['visible']);
    expect(await listComments(listing(deps), { limit: 50, result_type: 'total' })).toEqual({ count: 1 });
  });

  it('filters by raiser (exactly) and by the Calls and Messages groups', async () => {
    const { deps, table, item } = setup();
    await table.put(item(REF, 'Call', 'open'));
    await table.put(item(HIDDEN, 'SMS', 'open'));
    await createComment(creating(deps, person('demo-ann', 'ann@demo.test')), REF, { message: 'on the call' });
    await createComment(creating(deps, person('demo-bob', 'bob@demo.test')), HIDDEN, { message: 'on the sms' });
    const bodies = async (query: Partial<Parameters<typeof listComments>[1]>) => {
      const page = await listComments(listing(deps), { limit: 50, result_type: 'page', ...query });
      return 'data' in page ? page.data.map((comment) => comment.comment_body) : [];
    };
    expect(await bodies({ raised_by: 'demo-ann' })).toEqual(['on the call']);
    expect(await bodies({ raised_by: 'DEMO-ANN' })).toEqual([]);
    expect(await bodies({ raised_by: '*' })).toEqual([]);
    expect(await bodies({ payload_types: ['Calls'] })).toEqual(['on the call']);
    expect(await bodies({ payload_types: ['Messages'] })).toEqual(['on the sms']);
    expect(await bodies({ payload_types: ['Messages'], raised_by: 'demo-ann' })).toEqual([]);
    expect(await listComments(listing(deps), { limit: 50, result_type: 'total', raised_by: 'demo-bob' })).toEqual({ count: 1 });
  });

  it('reads the recording length from the item or a decrypted meta, ignoring junk', () => {
    const base = { pk: 'p', sk: 's', entity: 'Payload', payload_reference: 'r', payload_type: 'Call', payload_state: 'Processed', device_reference: 'd' };
    const duration = (attributes: Record<string, unknown>) => recordingDuration(readPayload({ ...base, ...attributes }));
    expect(duration({ payload_full_duration: 30 })).toBe(30);
    expect(duration({ meta: { payload_duration: 12 } })).toBe(12);
    expect(duration({ meta: 'c2VhbGVk' })).toBeUndefined();
    // A duration stored as text is a malformed item: refused by the reader, never read as a length.
    expect(() => duration({ payload_duration: '40' })).toThrow(/payload_duration/);
    expect(duration({ payload_duration: -1 })).toBeUndefined();
  });
});
