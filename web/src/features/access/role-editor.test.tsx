import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn, type SignedInUser } from '../../testing/render-signed-in.tsx';
import { RoleEditor } from './role-editor.tsx';
import { EMPTY_ROLE } from './role-model.ts';

const catalogue = [
  { action: 'devices:List', description: 'List devices.' },
  { action: 'devices:Read', description: 'Read a device.' },
  { action: 'payloads:Download', description: 'Download payloads.' },
];

const ROLE_EDITOR: SignedInUser = { reference: 'u-1', actions: ['roles:List', 'roles:Read', 'roles:Update'], groups: [], roles: ['admin'], payloadTypes: [] };

function render(node: ReactNode, user: SignedInUser | undefined = ROLE_EDITOR): string {
  return renderSignedIn(node, user)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');
}

describe('RoleEditor', () => {
  it('explains each rule and evaluates the whole role against the catalogue', () => {
    const text = render(
      <RoleEditor
        initial={{
          ...EMPTY_ROLE,
          reference: 'sales',
          rules: [
            { effect: 'allow', actions: ['devices:*'], isRegex: false, conditions: [{ mode: 'include', names: 'sales-*', keys: '', values: '', isRegex: false }] },
            { effect: 'deny', actions: ['devices:Read'], isRegex: false, conditions: [] },
          ],
        }}
        creating
        readOnly={false}
        catalogue={catalogue}
        onSaved={() => undefined}
      />,
    );
    expect(text).toContain('Allows actions matching "devices:*" on groups whose name is like "sales-*".');
    expect(text).toContain('Denies devices:Read, everywhere.');
    expect(text).toContain('The patterns cover 2 catalogue actions: devices:List, devices:Read.');
    expect(text).toContain('1 of 3 actions are allowed on at least some groups');
    expect(text).toContain('Create role');
    expect(text).toContain('Narrowed by a deny devices:Read : allowed by a rule, but denied everywhere by rule 2.');
  });

  it('offers no save to a user whose roles may not change roles, and says why', () => {
    const reader = { ...ROLE_EDITOR, actions: ['roles:List', 'roles:Read'] };
    const text = render(<RoleEditor initial={{ ...EMPTY_ROLE, reference: 'sales' }} creating={false} readOnly={false} catalogue={catalogue} onSaved={() => undefined} />, reader);
    expect(text).not.toContain('Save role');
    expect(text).toContain('Your roles do not allow changing roles.');
  });

  it('shows a system role read-only, without a save button', () => {
    const text = render(<RoleEditor initial={{ ...EMPTY_ROLE, reference: 'admin', rules: [{ effect: 'allow', actions: ['*'], isRegex: false, conditions: [] }] }} creating={false} readOnly catalogue={catalogue} onSaved={() => undefined} />);
    expect(text).toContain('Actions: *');
    expect(text).toContain('Allows every action.');
    expect(text).not.toContain('Save role');
  });
});
