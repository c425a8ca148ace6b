import { describe, expect, it } from 'vitest';
import { APP_FIELD_PATHS, checkAppForm, EMPTY_APP_FORM } from './app-form-model.ts';
import { formErrorsOf } from '../../lib/form-errors.ts';

const GOOD = {
  ...EMPTY_APP_FORM,
  reference: 'Archive exporter',
  issuer: 'https://login.example.com',
  audience: 'verity-api',
  jwksUri: 'https://login.example.com/jwks',
  roles: ['reviewer'],
  cidrRanges: ['10.0.0.0/8'],
};

describe('client app form check', () => {
  it('builds the request from valid values', () => {
    expect(checkAppForm(GOOD)).toEqual({
      ok: true,
      reference: 'Archive exporter',
      body: {
        oidc_config: { issuer: 'https://login.example.com', audience: 'verity-api', jwks_uri: 'https://login.example.com/jwks' },
        roles: ['reviewer'],
        cidr_ranges: ['10.0.0.0/8'],
      },
    });
  });

  it('puts the contract messages under the fields they concern', () => {
    const checked = checkAppForm({ ...GOOD, reference: ' x', issuer: 'http://plain', roles: [], cidrRanges: ['not a range'] });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    const errors = formErrorsOf(checked.lines, APP_FIELD_PATHS);
    expect(errors.field.reference).toBeDefined();
    expect(errors.field.issuer).toBe('Must start with https://');
    expect(errors.field.roles).toBeDefined();
    expect(errors.field.cidrRanges).toBeDefined();
    expect(errors.general).toEqual([]);
  });
});
