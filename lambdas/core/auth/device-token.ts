import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { ClientId } from '#shared/contract/fields.ts';
import { UnauthorizedError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { TableStore } from '../ports/table-store.ts';
import { readDevice } from '../store/entities/device.ts';
import { keys } from '../store/keys.ts';
import type { DevicePrincipal } from './principal.ts';

/**
 * Verifies a device token (issued by the device authentication exchange) and says which device holds it.
 * Throws UnauthorizedError with a short reason.
 */
export interface DeviceTokenVerifier {
  verify(token: string): Promise<DevicePrincipal>;
}

/** Issues the device tokens a DeviceTokenVerifier accepts. */
export interface DeviceTokenIssuer {
  /** `activatedAt` is the device's `activated_at` when the token is issued: its activation epoch. */
  issue(device: { client: string; deviceReference: string; activatedAt: string; deviceUserReference?: string; group?: string }): {
    token: string;
    expiresIn: number;
  };
}

/** The device principal plus what the device item said when the token was checked (for device activity records). */
export interface DeviceCallPrincipal extends DevicePrincipal {
  deviceUserReference?: string;
  group?: string;
}

/**
 * A token whose signature held but which is refused (expired, device deactivated or re-activated since): the
 * device is known, so the refusal is recorded as its device activity.
 */
export class DeviceTokenRefusedError extends UnauthorizedError {
  constructor(
    message: string,
    readonly device: { client: string; deviceReference: string },
  ) {
    super(message);
  }
}

/** Until the device authentication exchange exists there is no valid device token: every one is refused. */
export const refuseDeviceTokens: DeviceTokenVerifier = {
  verify() {
    return Promise.reject(new UnauthorizedError('Device tokens are not issued yet'));
  },
};

/**
 * The device-token HMAC key: DEVICE_TOKEN_SECRET, or one derived from CURSOR_SECRET under its own label, so a
 * cursor signature can never pass as a device token signature (or the reverse).
 */
export function deviceTokenSecret(config: { DEVICE_TOKEN_SECRET?: string | undefined; CURSOR_SECRET: string }): string {
  return config.DEVICE_TOKEN_SECRET ?? createHmac('sha256', config.CURSOR_SECRET).update('verity-device-token-secret').digest('hex');
}

/** One hour: a device re-authenticates that often, so a deactivation or a user change reaches it soon. */
export const DEVICE_TOKEN_SECONDS = 3600;
const PREFIX = 'dt1';

const Claims = z.strictObject({
  c: ClientId,
  d: z.string().min(1).max(64),
  /** The device's activated_at at issue: a re-activation (or a deactivation) makes older tokens stale. */
  a: z.string().min(1).max(40),
  /** Device user and group at issue: informational only (the verifier reads the device item). */
  u: z.string().max(255).optional(),
  g: z.string().max(255).optional(),
  iat: z.int(),
  exp: z.int(),
});

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * Device tokens: `dt1.<base64url claims JSON>.<base64url HMAC-SHA256>` under a per-environment secret. Stateless to
 * check, but each call also reads the device item (consistent read), so a deactivated device's token is refused
 * at once, and a token from before a re-activation stays refused (its activation epoch is stale).
 */
export function createDeviceTokens(options: { secret: string; table: TableStore; clock: Clock; lifetimeSeconds?: number }): DeviceTokenIssuer &
  DeviceTokenVerifier {
  const lifetime = options.lifetimeSeconds ?? DEVICE_TOKEN_SECONDS;
  const sign = (body: string) => createHmac('sha256', options.secret).update(`${PREFIX}.${body}`).digest();

  return {
    issue(device) {
      const now = Math.floor(options.clock.now().getTime() / 1000);
      const claims = {
        c: device.client,
        d: device.deviceReference,
        a: device.activatedAt,
        ...(device.deviceUserReference === undefined ? {} : { u: device.deviceUserReference }),
        ...(device.group === undefined ? {} : { g: device.group }),
        iat: now,
        exp: now + lifetime,
      };
      const body = b64url(Buffer.from(JSON.stringify(claims)));
      return { token: `${PREFIX}.${body}.${b64url(sign(body))}`, expiresIn: lifetime };
    },

    async verify(token) {
      const parts = token.split('.');
      if (parts.length !== 3 || parts[0] !== PREFIX) throw new UnauthorizedError('Device token malformed');
      const [, body, signature] = parts as [string, string, string];
      const expected = sign(body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new UnauthorizedError('Device token invalid');
      let claims: z.infer<typeof Claims>;
      try {
        claims = Claims.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      } catch {
        throw new UnauthorizedError('Device token invalid');
      }
      const device = { client: claims.c, deviceReference: claims.d };
      if (claims.exp <= Math.floor(options.clock.now().getTime() / 1000)) {
        throw new DeviceTokenRefusedError('Device token expired', device);
      }
      const { pk, sk } = keys.device.item(claims.c, claims.d);
      const item = await options.table.get({ pk, sk }, { consistent: true });
      if (item === undefined) throw new DeviceTokenRefusedError('Device unknown', device);
      const stored = readDevice(item);
      if (stored.is_deactivated) throw new DeviceTokenRefusedError('Device is deactivated: authenticate again', device);
      if (stored.activated_at !== claims.a) throw new DeviceTokenRefusedError('Device token superseded: authenticate again', device);
      const principal: DeviceCallPrincipal = {
        kind: 'device',
        client: claims.c,
        deviceReference: claims.d,
        ...(stored.device_user_reference === undefined ? {} : { deviceUserReference: stored.device_user_reference }),
        ...(stored.group === undefined ? {} : { group: stored.group }),
      };
      return principal;
    },
  };
}

/**
 * The device a token we just issued names, read WITHOUT checking it: only for a token this process produced (the
 * authentication exchange's own answer, to record that call as the device's activity). Undefined when unreadable.
 */
export function deviceOfIssuedToken(token: unknown): DeviceCallPrincipal | undefined {
  if (typeof token !== 'string') return undefined;
  const body = token.split('.')[1];
  if (body === undefined) return undefined;
  try {
    const claims = Claims.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    return {
      kind: 'device',
      client: claims.c,
      deviceReference: claims.d,
      ...(claims.u === undefined ? {} : { deviceUserReference: claims.u }),
      ...(claims.g === undefined ? {} : { group: claims.g }),
    };
  } catch {
    return undefined;
  }
}
