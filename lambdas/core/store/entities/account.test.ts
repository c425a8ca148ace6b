import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readAccount } from './account.ts';

describe('account item', () => {
  it('reads the client, its display name and the free-form legacy defaults', () => {
    const item = { ...keys.account.item('acme'), client: 'acme', display_name: 'Acme Ltd', account_defaults: { role: 'reviewer' } };
    expect(readAccount(item)).toEqual({ client: 'acme', display_name: 'Acme Ltd', account_defaults: { role: 'reviewer' } });
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...keys.account.item('acme'), client: 'acme', display_name: 42 };
    expect(() => readAccount(item)).toThrow(InternalError);
    expect(() => readAccount(item)).toThrow(/Account item .* display_name: /);
  });
});
