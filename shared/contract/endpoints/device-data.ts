import { LogLevel } from '../../constants/devices.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageOrTotal } from '../entities/common.ts';
import { Gps } from '../entities/gps.ts';
import { DeviceLog } from '../entities/logs.ts';
import { DeviceReference, DeviceUserReference, GroupReference } from '../fields.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery } from './query.ts';

const base = { surface: 'client', auth: 'client-app', group: 'device-data' } as const;

const logQuery = listQuery({ ...dateRangeQuery, log_level: LogLevel.optional() });
const gpsQuery = listQuery({ ...dateRangeQuery });

export const deviceDataEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.device-logs.list',
    method: 'GET',
    path: '/device_logs',
    action: 'deviceLogs:List',
    summary: 'Device logs across devices.',
    query: listQuery({
      ...dateRangeQuery,
      log_level: LogLevel.optional(),
      device_reference: DeviceReference.optional(),
      group: GroupReference.optional(),
    }),
    response: pageOrTotal(DeviceLog),
  }),
  defineEndpoint({
    ...base,
    id: 'client.devices.logs',
    method: 'GET',
    path: '/devices/{device_reference}/logs',
    action: 'deviceLogs:List',
    summary: "One device's logs.",
    params: params('device_reference'),
    query: logQuery,
    response: pageOrTotal(DeviceLog),
  }),
  defineEndpoint({
    ...base,
    id: 'client.users.logs',
    method: 'GET',
    path: '/users/{device_user_reference}/logs',
    action: 'deviceLogs:List',
    summary: "Logs of a device user's devices.",
    params: params('device_user_reference'),
    query: logQuery,
    response: pageOrTotal(DeviceLog),
  }),
  defineEndpoint({
    ...base,
    id: 'client.gps.list',
    method: 'GET',
    path: '/gps',
    action: 'gps:List',
    summary: 'GPS fixes across devices.',
    query: listQuery({
      ...dateRangeQuery,
      device_reference: DeviceReference.optional(),
      device_user_reference: DeviceUserReference.optional(),
      group: GroupReference.optional(),
    }),
    response: pageOrTotal(Gps),
  }),
  defineEndpoint({
    ...base,
    id: 'client.devices.gps',
    method: 'GET',
    path: '/devices/{device_reference}/gps',
    action: 'gps:List',
    summary: "One device's GPS fixes.",
    params: params('device_reference'),
    query: gpsQuery,
    response: pageOrTotal(Gps),
  }),
  defineEndpoint({
    ...base,
    id: 'client.users.gps',
    method: 'GET',
    path: '/users/{device_user_reference}/gps',
    action: 'gps:List',
    summary: "GPS fixes of a device user's devices.",
    params: params('device_user_reference'),
    query: gpsQuery,
    response: pageOrTotal(Gps),
  }),
] as const;
