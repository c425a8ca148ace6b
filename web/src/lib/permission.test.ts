import { describe, expect, it } from 'vitest';
import { ACTION_NAMES } from '#shared/contract/actions.ts';
import { missingActionReason, permissionOf, PERMISSIONS_NOT_LOADED } from './permission.ts';

describe('permissionOf', () => {
  it('allows an action the profile lists', () => {
    expect(permissionOf(['devices:List', 'devices:Deactivate'], 'devices:Deactivate')).toEqual({ action: 'devices:Deactivate', allowed: true });
  });

  it('refuses an action the profile lacks, naming it and what it does', () => {
    const permission = permissionOf(['devices:List'], 'devices:Deactivate');
    expect(permission.allowed).toBe(false);
    expect(permission.reason).toBe('Your roles do not allow deactivating devices.');
  });

  it('needs every action of a list and reports the first missing one', () => {
    const permission = permissionOf(['groups:Update'], ['groups:Update', 'groups:Delete']);
    expect(permission).toMatchObject({ action: 'groups:Delete', allowed: false });
  });

  it('in support mode, says support mode refuses a lasting act rather than blaming the role', () => {
    // The support-mode profile omits the refused acts (shared/contract/support-mode.ts): the reason says why.
    expect(permissionOf(['apps:List'], 'apps:Create', { supportMode: true })).toEqual({
      action: 'apps:Create',
      allowed: false,
      reason: "Support mode cannot create or change client apps; ask the tenant's administrator.",
    });
    expect(permissionOf(['apps:List'], 'apps:Delete', { supportMode: true }).reason).toBe(missingActionReason('apps:Delete'));
    expect(permissionOf(['apps:List'], 'apps:Create').reason).toBe(missingActionReason('apps:Create'));
  });

  it('refuses while the profile is not loaded', () => {
    expect(permissionOf(undefined, 'devices:List')).toEqual({ action: 'devices:List', allowed: false, reason: PERMISSIONS_NOT_LOADED });
  });

  it('says every action of the catalogue in words, and one it does not know by its name', () => {
    for (const action of ACTION_NAMES) expect(missingActionReason(action), action).not.toContain(action);
    expect(missingActionReason('x:Y')).toBe('Your roles do not allow x:Y.');
  });
});
