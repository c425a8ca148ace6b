import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { NewProductionForm } from './production-form.tsx';
import { ProductionsScreen } from './productions-screen.tsx';

const started = () => undefined;

describe('the productions screen', () => {
  it('offers "New production" only to a role that may produce, tagged with the action it needs', () => {
    const reader = renderSignedIn(<ProductionsScreen />, userWith(['productions:List']));
    expect(reader).toContain('No productions yet.');
    expect(reader).not.toContain('New production');
    const producer = renderSignedIn(<ProductionsScreen />, userWith(['productions:List', 'productions:Create', 'deviceUsers:List']));
    expect(producer).toMatch(/data-requires-action="productions:Create"[^>]*>.*New production/s);
  });

  it('asks a search for custodians by name, a client copy for the client’s numbers only', () => {
    const user = userWith(['productions:Create', 'deviceUsers:List']);
    const search = renderSignedIn(<NewProductionForm kind="Search" onStarted={started} />, user);
    expect(search).toContain('aria-label="New production from a search"');
    expect(search).toContain('Custodians');
    expect(search).toContain('Counterparty numbers');
    expect(search).toContain('Control-number prefix');
    expect(search).toContain('Start production');
    const copy = renderSignedIn(<NewProductionForm kind="ClientCopy" onStarted={started} />, user);
    expect(copy).toContain('aria-label="New client copy"');
    expect(copy).not.toContain('Custodians');
    expect(copy).toContain('The client&#x27;s numbers');
  });
});
