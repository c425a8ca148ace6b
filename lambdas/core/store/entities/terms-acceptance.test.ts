import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readTermsAcceptance, termsAcceptanceToItem } from './terms-acceptance.ts';

const acceptance = {
  client: 'demo',
  user_reference: 'sub-1',
  is_staff: true,
  support_reference: 'req-1',
  valid_from: '2026-01-01T00:00:00.000Z',
  accepted_at: '2026-01-02T03:04:05.000Z',
};

describe('terms acceptance item', () => {
  it('round-trips under the key of who accepted which terms', () => {
    const item = termsAcceptanceToItem(acceptance);
    expect(item).toMatchObject(keys.termsAcceptance.item('demo', { reference: 'sub-1', staff: true }, acceptance.valid_from));
    expect(readTermsAcceptance(item)).toEqual(acceptance);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...termsAcceptanceToItem(acceptance), accepted_at: undefined };
    expect(() => readTermsAcceptance(item)).toThrow(InternalError);
    expect(() => readTermsAcceptance(item)).toThrow(/TermsAcceptance item .* accepted_at: /);
  });
});
