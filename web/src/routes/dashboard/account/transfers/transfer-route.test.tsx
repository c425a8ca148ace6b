import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Transferable } from '#shared/contract/entities/transfers.ts';
import { AppProviders } from '../../../../app/providers.tsx';
import { Route as TransferRoute } from './$transferId.tsx';
import { runLoader, sessionAnswering } from '../../../../testing/detail-route.ts';
import { ApiError } from '../../../../lib/api-error.ts';
import { transferQueryOptions } from '../../../../features/transfers/api/get-transfer.ts';
import { TransferError } from '../../../../features/transfers/transfer-detail.tsx';

const TRANSFER_ID = '01JD0000000000000000000000';

const transfer: Transferable = {
  transfer_id: TRANSFER_ID,
  transfer_config_reference: 'Nightly archive',
  transfer_type: 'Payload',
  created_at: '2026-11-24T09:00:00.000Z',
  transfer_state: 'Succeeded',
  transfers: [],
  related_payloads: [],
  payload_count: 3,
};

const ACTIONS = ['transfers:Read'];

describe("a transfer's route", () => {
  it('has the transfer in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, transfer, ACTIONS);
    await runLoader(TransferRoute, { queryClient, session }, { transferId: TRANSFER_ID });
    const key = transferQueryOptions(session, TRANSFER_ID).queryKey;
    expect(queryClient.getQueryData(key)).toEqual(transfer);
    // What the page reads with useSuspenseQuery is there, fresh: it renders without suspending or asking again.
    expect(queryClient.getQueryState(key)?.status).toBe('success');
  });

  it('keeps a refusal for the page to show under its title with the API message, rather than failing the navigation', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const session = sessionAnswering(404, { error_code: 404, message: ['params.transfer_id: No transfer with that id'] }, ACTIONS);
    await runLoader(TransferRoute, { queryClient, session }, { transferId: TRANSFER_ID });
    const error = queryClient.getQueryState(transferQueryOptions(session, TRANSFER_ID).queryKey)?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const html = renderToString(
      <AppProviders queryClient={queryClient} session={session}>
        <TransferError transferId={TRANSFER_ID} error={error} />
      </AppProviders>,
    );
    expect(html).toContain('>Transfer …00000000</h1>');
    expect(html).toContain('This transfer could not be loaded');
    expect(html).toContain((error as Error).message);
    expect((error as Error).message).not.toBe('');
  });
});
