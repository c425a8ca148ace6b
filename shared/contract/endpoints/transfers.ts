import { TransferState } from '../../constants/account.ts';
import { defineEndpoint } from '../endpoint.ts';
import { OkResponse, pageOrTotal } from '../entities/common.ts';
import { TransferConfig, TransferConfigRequest, Transferable, TransferFileState, TransferItem, TransferRunResponse } from '../entities/transfers.ts';
import { TransferConfigReference } from '../fields.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery } from './query.ts';

const base = { surface: 'client', auth: 'client-app', group: 'transfers' } as const;

export const transferEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.transfer-configs.list',
    method: 'GET',
    path: '/transfer_configs',
    action: 'transferConfigs:List',
    summary: 'Transfer configurations.',
    query: listQuery({}),
    response: pageOrTotal(TransferConfig),
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfer-configs.get',
    method: 'GET',
    path: '/transfer_configs/{transfer_config_reference}',
    action: 'transferConfigs:Read',
    summary: 'One transfer configuration (secrets are never returned).',
    params: params('transfer_config_reference'),
    response: TransferConfig,
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfer-configs.create',
    method: 'POST',
    path: '/transfer_configs/{transfer_config_reference}',
    action: 'transferConfigs:Create',
    summary: 'Create a transfer configuration (S3 or SFTP target).',
    params: params('transfer_config_reference'),
    body: TransferConfigRequest,
    response: TransferConfig,
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfer-configs.update',
    method: 'PUT',
    path: '/transfer_configs/{transfer_config_reference}',
    action: 'transferConfigs:Update',
    summary: 'Replace a transfer configuration.',
    params: params('transfer_config_reference'),
    body: TransferConfigRequest,
    response: TransferConfig,
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfer-configs.delete',
    method: 'DELETE',
    path: '/transfer_configs/{transfer_config_reference}',
    action: 'transferConfigs:Delete',
    summary: 'Delete a transfer configuration and its schedule.',
    params: params('transfer_config_reference'),
    response: OkResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfer-configs.run',
    method: 'POST',
    path: '/transfer_configs/{transfer_config_reference}/run',
    action: 'transfers:Run',
    summary: 'Run a transfer now.',
    params: params('transfer_config_reference'),
    response: TransferRunResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfers.list',
    method: 'GET',
    path: '/transfers',
    action: 'transfers:List',
    summary: 'Transfers (runs), newest first.',
    query: listQuery({
      ...dateRangeQuery,
      transfer_state: TransferState.optional(),
      transfer_config_reference: TransferConfigReference.optional(),
    }),
    response: pageOrTotal(Transferable),
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfers.get',
    method: 'GET',
    path: '/transfers/{transfer_id}',
    action: 'transfers:Read',
    summary: 'One transfer with its progress and the first page (100) of its files, checksums and attempts.',
    params: params('transfer_id'),
    response: Transferable,
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfers.files',
    method: 'GET',
    path: '/transfers/{transfer_id}/files',
    action: 'transfers:Read',
    summary: 'The files of a transfer, in delivery order, page by page; `file_state` keeps one state.',
    params: params('transfer_id'),
    query: listQuery({ file_state: TransferFileState.optional() }),
    response: pageOrTotal(TransferItem),
  }),
  defineEndpoint({
    ...base,
    id: 'client.transfers.rerun',
    method: 'POST',
    path: '/transfers/{transfer_id}/run',
    action: 'transfers:Run',
    summary: 'Run a transfer again: resumes a Pending or InProgress one whose job stopped, else a new transfer of the same recordings for the files not delivered.',
    params: params('transfer_id'),
    response: TransferRunResponse,
  }),
] as const;
