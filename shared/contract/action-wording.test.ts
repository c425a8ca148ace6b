import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, SYSTEM_ACTION_DESCRIPTIONS } from './actions.ts';
import { ACTION_WORDING, actionInWords, actionsOfKind, SYSTEM_ACTION_WORDING, wordingOf } from './action-wording.ts';
import { ACTION_CATALOGUE } from './registry.ts';

describe('ACTION_WORDING', () => {
  it('says every action some endpoint names, and no other', () => {
    expect(Object.keys(ACTION_WORDING).sort()).toEqual([...ACTION_NAMES].sort());
    for (const entry of ACTION_CATALOGUE) expect(ACTION_WORDING[entry.action], entry.action).toBeDefined();
  });

  it('says each action in words, never by its code', () => {
    for (const [action, wording] of Object.entries(ACTION_WORDING)) {
      for (const text of [wording.doing, wording.did]) {
        expect(text, action).not.toMatch(/[:A-Z]/);
        expect(text.trim().length, action).toBeGreaterThan(0);
      }
    }
  });

  it('counts as reads only the actions that change nothing', () => {
    expect(actionsOfKind('read')).toContain('payloads:List');
    expect(actionsOfKind('change')).toEqual(expect.arrayContaining(['payloads:Download', 'legalHolds:Update', 'comments:Create']));
    expect(actionsOfKind('read')).not.toContain('payloads:Download');
  });

  it('words what Verity itself does (a job, a device outside a call), which no role can be granted', () => {
    expect(Object.keys(SYSTEM_ACTION_WORDING).sort()).toEqual(Object.keys(SYSTEM_ACTION_DESCRIPTIONS).sort());
    for (const [action, wording] of Object.entries(SYSTEM_ACTION_WORDING)) {
      expect(ACTION_NAMES, action).not.toContain(action);
      for (const text of [wording.doing, wording.did]) expect(text, action).not.toMatch(/[:A-Z]/);
    }
    expect(wordingOf('approvals:Expire')).toEqual({ kind: 'change', doing: 'expiring pending changes', did: 'expired the pending change' });
    expect(actionInWords('approvals:Expire')).toBe('expiring pending changes (approvals:Expire)');
    expect(actionsOfKind('change')).toEqual(expect.arrayContaining(['approvals:Expire', 'supervision:RecordHits', 'devices:Reassign']));
  });

  it('says an action it does not know by its own name rather than inventing words', () => {
    expect(wordingOf('future:Thing').doing).toBe('future:Thing');
  });
});
