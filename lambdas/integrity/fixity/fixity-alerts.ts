import type { Dependencies } from '#core/dependencies.ts';
import type { FixityFailureKind } from '#shared/contract/entities/integrity.ts';
import { keys } from '#core/store/keys.ts';
import { raiseAlert, relatedEntity } from '../../alerts/public.ts';
import type { ObjectFault } from './object-checks.ts';

type AlertDeps = Pick<Dependencies, 'table' | 'clock'>;

/** The Scoped key of a recording's fixity alert: one open alert per recording and failure kind, not one per run. */
export const fixityAlertKey = (payloadReference: string, kind: FixityFailureKind) => `fixity:${payloadReference}:${kind}`;

const KIND_WORDS: Record<FixityFailureKind, string> = { missing: 'missing', changed: 'changed', unreadable: 'unreadable' };

export interface FailedRecording {
  payload_reference: string;
  payload_type: string;
  payload_time?: string | undefined;
  device_user_reference?: string | undefined;
}

/** The device user by name, as a compliance officer knows them; the reference when the user has no name. */
async function deviceUserName(deps: AlertDeps, client: string, reference: string | undefined): Promise<string | undefined> {
  if (reference === undefined) return undefined;
  const item = await deps.table.get(keys.deviceUser.key(client, reference));
  if (item === undefined) return reference;
  // Only the name is read: a user item a later contract change made stricter must not stop the alert.
  const name = [item.first_name, item.surname].filter((word): word is string => typeof word === 'string' && word !== '').join(' ');
  return name === '' ? reference : name;
}

/**
 * Raises the `sec` alert of a stored recording that failed its fixity check: Scoped per recording and failure kind,
 * so a recording still failing on the next run adds an occurrence to its open alert. Not best-effort: a failure to
 * raise fails the run, which is retried, rather than leaving a changed record unreported.
 */
export async function raiseFixityAlert(deps: AlertDeps, client: string, recording: FailedRecording, fault: ObjectFault): Promise<string> {
  const name = await deviceUserName(deps, client, recording.device_user_reference);
  const of = name === undefined ? '' : ` of ${name}`;
  const when = recording.payload_time === undefined ? '' : ` recorded ${recording.payload_time}`;
  const raised = await raiseAlert(deps, client, {
    scope: 'sec',
    type: 'PayloadAlert',
    subject: `Stored recording ${KIND_WORDS[fault.kind]}: ${recording.payload_type} ${recording.payload_reference}${of}`,
    key: fixityAlertKey(recording.payload_reference, fault.kind),
    keyType: 'Scoped',
    message: `The ${recording.payload_type} recording ${recording.payload_reference}${of}${when} failed its fixity check: ${fault.detail}`,
    severity: 'High',
    relatedEntities: [
      relatedEntity(client, 'Payload', recording.payload_reference),
      ...(recording.device_user_reference === undefined ? [] : [relatedEntity(client, 'DeviceUser', recording.device_user_reference)]),
    ],
    apiAction: 'activities:List',
  });
  return raised.alert.alert_reference;
}
