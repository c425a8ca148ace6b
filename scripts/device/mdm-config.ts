import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientId } from '#shared/contract/fields.ts';

/**
 * The MDM configuration a managed phone receives: its tenant and the tenant's enrolment key (docs/device-protocol.md).
 * A real phone gets it pushed by the MDM; on one machine the stack process (which can read the key through the core
 * module `deviceKeysOf`) writes it to `<devices dir>/mdm/<client>.json` at start, and the simulator CLI reads it from
 * there, so the CLI needs no database access. The file holds a plaintext key: local demo data only, owner-only mode.
 */
export interface MdmConfig {
  client: string;
  enrolment_key: string;
}

function mdmPath(devicesDir: string, client: string): string {
  ClientId.parse(client);
  return join(devicesDir, 'mdm', `${client}.json`);
}

export function writeMdmConfig(devicesDir: string, client: string, enrolmentKey: Buffer): void {
  mkdirSync(join(devicesDir, 'mdm'), { recursive: true, mode: 0o700 });
  const file = mdmPath(devicesDir, client);
  const config: MdmConfig = { client, enrolment_key: enrolmentKey.toString('base64') };
  writeFileSync(file, `${JSON.stringify(config)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The tenant's enrolment key, or a message saying how to get the MDM configuration written. */
export function readEnrolmentKey(devicesDir: string, client: string): Buffer {
  let text: string;
  try {
    text = readFileSync(mdmPath(devicesDir, client), 'utf8');
  } catch {
    throw new Error(`No MDM configuration for client ${client} in ${join(devicesDir, 'mdm')}: start the local stack (npm start) first`);
  }
  const config = JSON.parse(text) as Partial<MdmConfig>;
  const key = Buffer.from(String(config.enrolment_key ?? ''), 'base64');
  if (key.length !== 32) throw new Error(`${mdmPath(devicesDir, client)} holds no 32-byte enrolment key`);
  return key;
}
