import { describe, expect, it } from 'vitest';
import { PRODUCTION_CUSTODIANS_MAX } from '#shared/contract/entities/productions.ts';
import { formErrorsOf } from '../../lib/form-errors.ts';
import {
  custodianOption,
  custodianOptions,
  DOWNLOAD_TARGET,
  emptyDraft,
  PRODUCTION_FORM_PATHS,
  productionRequestOf,
  transferTargetLabel,
  type ProductionDraft,
} from './production-request.ts';

const search: ProductionDraft = {
  ...emptyDraft('Search'),
  custodians: ['du-alice', 'du-bram'],
  numbers: [' +447700900200 ', '+447700900200', ''],
  period: { from: '2026-03-01', to: '2026-05-31' },
  prefix: 'ABC',
};

const linesOf = (draft: ProductionDraft) => {
  const request = productionRequestOf(draft);
  return request.ok ? [] : request.lines;
};

describe('the new production form model', () => {
  it('sends a search as the contract takes it: custodians, numbers once each, whole UTC days, types, prefix, a download', () => {
    const request = productionRequestOf(search);
    expect(request).toEqual({
      ok: true,
      body: {
        control_prefix: 'ABC',
        destination: { type: 'Download' },
        criteria: {
          custodians: ['du-alice', 'du-bram'],
          counterparty_numbers: ['+447700900200'],
          from: '2026-03-01T00:00:00Z',
          to: '2026-05-31T23:59:59Z',
          payload_types: ['Call', 'SMS', 'RCS', 'MMS'],
        },
      },
    });
  });

  it('sends a client copy by number only, even when custodians were picked before switching, and to a transfer target', () => {
    const request = productionRequestOf({ ...search, kind: 'ClientCopy', target: 'demo-sftp' });
    expect(request.ok && request.body).toEqual({
      control_prefix: 'ABC',
      destination: { type: 'Transfer', transfer_config_reference: 'demo-sftp' },
      client_copy: true,
      criteria: { counterparty_numbers: ['+447700900200'], from: '2026-03-01T00:00:00Z', to: '2026-05-31T23:59:59Z', payload_types: ['Call', 'SMS', 'RCS', 'MMS'] },
    });
  });

  it('starts with conversations, a download link and nothing picked', () => {
    expect(emptyDraft('ClientCopy')).toEqual({
      kind: 'ClientCopy',
      custodians: [],
      numbers: [],
      period: { from: undefined, to: undefined },
      types: ['Call', 'SMS', 'RCS', 'MMS'],
      prefix: '',
      target: DOWNLOAD_TARGET,
    });
  });

  it('refuses what the server would refuse, each line under its field', () => {
    const lines = linesOf({ ...emptyDraft('Search'), types: [] });
    expect(lines).toEqual([
      'body.criteria.custodians: Pick at least one device user',
      'body.criteria.from: Choose the first day',
      'body.criteria.to: Choose the last day',
      'body.criteria.payload_types: Choose at least one payload type',
      'body.control_prefix: Give the control numbers a prefix',
    ]);
    const errors = formErrorsOf(lines, PRODUCTION_FORM_PATHS);
    expect(errors.general).toEqual([]);
    expect(errors.field).toEqual({
      custodians: 'Pick at least one device user',
      from: 'Choose the first day',
      to: 'Choose the last day',
      types: 'Choose at least one payload type',
      prefix: 'Give the control numbers a prefix',
    });
    expect(linesOf({ ...emptyDraft('ClientCopy'), numbers: ['  '], period: search.period, prefix: 'C' })).toEqual([
      "body.criteria.counterparty_numbers: Give the client's number: a client copy is by counterparty number",
    ]);
  });

  it('refuses a period that ends before it starts', () => {
    expect(linesOf({ ...search, period: { from: '2026-06-01', to: '2026-05-31' } })).toEqual(['body.criteria.from: Must not be after the last day']);
  });

  it('refuses a prefix with path characters, in the contract’s words', () => {
    for (const prefix of ['../etc', 'A/B', 'A B', 'A.B', 'A\\B', 'A\u0000']) {
      expect(linesOf({ ...search, prefix }), prefix).toEqual(['body.control_prefix: Only letters, digits, _ and - are allowed']);
    }
    expect(linesOf({ ...search, prefix: 'A'.repeat(21) })).toEqual(['body.control_prefix: Must be 1 to 20 characters']);
    expect(linesOf({ ...search, prefix: 'Q2_rates-1' })).toEqual([]);
  });

  it('refuses more custodians than one production may name', () => {
    const many = Array.from({ length: PRODUCTION_CUSTODIANS_MAX + 1 }, (_, index) => `du-${index}`);
    const lines = linesOf({ ...search, custodians: many });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^body\.criteria\.custodians: .*100/);
  });

  it("places the server's refusals under the fields they name, and the rest above the form", () => {
    const errors = formErrorsOf(
      [
        'body.criteria.from: Must not be after to',
        'body.destination.transfer_config_reference: gone-sftp not found',
        'body.criteria: No records you may see match the production',
      ],
      PRODUCTION_FORM_PATHS,
    );
    expect(errors.field).toEqual({ from: 'Must not be after to', destination: 'transfer_config_reference: gone-sftp not found' });
    expect(errors.general).toEqual(['body.criteria: No records you may see match the production']);
  });
});

describe('the names the form shows', () => {
  it('names a transfer destination by its name, target and packaging', () => {
    expect(transferTargetLabel({ transfer_config_reference: 'demo-sftp', target_type: 'SFTP', transfer_file_format: 'ZippedWithPassword', pgp_key: '-----BEGIN PGP' })).toBe(
      'demo-sftp (SFTP, zipped with a password, PGP)',
    );
    expect(transferTargetLabel({ transfer_config_reference: 'vault', target_type: 'S3', transfer_file_format: 'Uncompressed' })).toBe('vault (S3, uncompressed)');
  });

  it('offers custodians by name and keeps those picked named while the search moves on', () => {
    const alice = custodianOption({ device_user_reference: 'du-alice', first_name: 'Alice', surname: 'Archer' });
    expect(alice).toEqual({ value: 'du-alice', label: 'Alice Archer (du-alice)' });
    expect(custodianOption({ device_user_reference: 'du-x' })).toEqual({ value: 'du-x', label: 'du-x' });
    const bram = { value: 'du-bram', label: 'Bram Baker (du-bram)' };
    const labels = new Map([[alice.value, alice.label]]);
    expect(custodianOptions([bram], ['du-alice', 'du-gone'], labels)).toEqual([bram, alice, { value: 'du-gone', label: 'du-gone' }]);
    expect(custodianOptions([alice], ['du-alice'], labels)).toEqual([alice]);
  });
});
