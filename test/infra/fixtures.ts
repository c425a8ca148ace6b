import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import type { RoutedEndpoint } from '../../lib/stacks/api-stack.ts';

/** A few endpoints across surfaces and groups, for tests that check the route machinery itself. */
export const FIXTURE_ENDPOINTS: readonly RoutedEndpoint[] = [
  defineEndpoint({ id: 'admin.devices.list', surface: 'admin', method: 'GET', path: '/devices', auth: 'user', action: 'devices:List', group: 'devices', summary: 'List devices', response: z.object({}) }),
  defineEndpoint({ id: 'admin.devices.get', surface: 'admin', method: 'GET', path: '/devices/{device_reference}', auth: 'user', action: 'devices:Get', group: 'devices', summary: 'Get a device', params: z.object({ device_reference: z.string() }), response: z.object({}) }),
  defineEndpoint({ id: 'admin.identity.url', surface: 'admin', method: 'GET', path: '/url', auth: 'public', action: 'identity:Url', group: 'identity', summary: 'Sign-in URL', response: z.object({}) }),
  defineEndpoint({ id: 'internal.support.list', surface: 'internal', method: 'GET', path: '/support_access', auth: 'user', action: 'supportAccess:List', group: 'support-access', summary: 'Support requests', response: z.object({}) }),
  defineEndpoint({ id: 'device.auth', surface: 'device', method: 'POST', path: '/authenticate', auth: 'public', action: 'device:Authenticate', group: 'device-api', summary: 'Device authentication', response: z.object({}) }),
];
