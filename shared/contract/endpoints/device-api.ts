import * as z from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { AuthenticationResponse, OkResponse } from '../entities/common.ts';
import {
  DeviceAlertRequest,
  DeviceAuthRequest,
  DeviceAuthResponse,
  DeviceCommandReport,
  PayloadRegistration,
  PayloadRegistrationResponse,
  PayloadUploadUrlRequest,
  PayloadUploadUrlResponse,
  SealedUpload,
} from '../entities/device-auth.ts';
import { LedgerAccepted } from '../entities/completeness.ts';
import { DeviceCommand } from '../entities/devices.ts';
import { DeviceLogUpload } from '../entities/logs.ts';
import { params } from './params.ts';

const base = { surface: 'device', auth: 'device', group: 'device-api' } as const;

/** Pending commands for the calling device, oldest first. */
export const PendingCommands = z.object({ data: z.array(DeviceCommand) });
export const AcceptedCount = z.object({ accepted: z.int().min(0) });
export const DeviceAlertResponse = z.object({ alert_reference: z.string() });

export const deviceApiEndpoints = [
  defineEndpoint({
    ...base,
    auth: 'public',
    id: 'device.authenticate',
    method: 'POST',
    path: '/authenticate',
    action: 'device:Authenticate',
    summary: 'Exchange the sealed device reference, phone numbers and IMEIs for a device token.',
    body: DeviceAuthRequest,
    response: DeviceAuthResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'device.keys',
    method: 'GET',
    path: '/keys',
    action: 'device:GetKeys',
    summary: 'The tenant key the device wraps payload keys with (key_id, kek).',
    response: AuthenticationResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'device.commands.poll',
    method: 'GET',
    path: '/commands',
    action: 'device:PollCommands',
    summary: 'Commands waiting for the device.',
    response: PendingCommands,
  }),
  defineEndpoint({
    ...base,
    id: 'device.commands.report',
    method: 'PUT',
    path: '/commands/{command_reference}',
    action: 'device:ReportCommand',
    summary: 'Report a command Acknowledged, Completed or Failed.',
    params: params('command_reference'),
    body: DeviceCommandReport,
    response: DeviceCommand,
  }),
  defineEndpoint({
    ...base,
    id: 'device.logs.upload',
    method: 'POST',
    path: '/logs',
    action: 'device:UploadLogs',
    summary: 'Upload at least 1 log line.',
    body: DeviceLogUpload,
    response: AcceptedCount,
  }),
  defineEndpoint({
    ...base,
    id: 'device.telemetry.upload',
    method: 'POST',
    path: '/telemetry',
    action: 'device:UploadTelemetry',
    summary: 'Upload a sealed telemetry report.',
    body: SealedUpload,
    response: OkResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'device.ledger.upload',
    method: 'POST',
    path: '/ledger',
    action: 'device:UploadLedger',
    summary:
      'Upload a sealed ledger report: the calls and messages the phone saw since its last report (no content), for capture completeness. Idempotent by entry id.',
    body: SealedUpload,
    response: LedgerAccepted,
  }),
  defineEndpoint({
    ...base,
    id: 'device.gps.upload',
    method: 'POST',
    path: '/gps',
    action: 'device:UploadGps',
    summary: 'Upload sealed GPS fixes.',
    body: SealedUpload,
    response: AcceptedCount,
  }),
  defineEndpoint({
    ...base,
    id: 'device.payloads.upload-url',
    method: 'POST',
    path: '/payloads/upload_url',
    action: 'device:UploadPayload',
    summary: 'A pre-signed URL to upload a payload ciphertext, and the payload reference it is filed under.',
    body: PayloadUploadUrlRequest,
    response: PayloadUploadUrlResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'device.payloads.register',
    method: 'POST',
    path: '/payloads',
    action: 'device:UploadPayload',
    summary: 'Register an uploaded payload: wrapped key, IV, key id, sealed meta and SHA-256 checksum.',
    body: PayloadRegistration,
    response: PayloadRegistrationResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'device.payloads.state',
    method: 'GET',
    path: '/payloads/{payload_reference}',
    action: 'device:ReadPayloadState',
    summary: 'Where a registered payload stands: pending, processed, failed or not_found.',
    params: params('payload_reference'),
    response: PayloadRegistrationResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'device.alerts.raise',
    method: 'POST',
    path: '/alerts',
    action: 'device:RaiseAlert',
    summary: 'Raise a device alert (subject, message, severity).',
    body: DeviceAlertRequest,
    response: DeviceAlertResponse,
  }),
] as const;
