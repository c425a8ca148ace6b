import type { Actor } from '#shared/contract/entities/actor.ts';

/**
 * How every screen names who did something (docs/decisions.md, "Who acted"): a person as "Name (e-mail)", staff in
 * support mode as "Name (support, request <reference>)", a client app, a device or a job by what it is. The name and
 * e-mail are those the record kept at the time of the act; a record written before actors were kept (no `actor`)
 * shows its stored reference as it is, never a guess.
 */
export function actorName(actor: Actor | undefined, storedReference: string, supportRequest?: string): string {
  if (actor === undefined) {
    // Jobs write their own name (`job:transfer`, `system:payload-processing`): say it is Verity's, not a person's.
    const job = /^(?:job|system):(.+)$/.exec(storedReference)?.[1];
    if (job !== undefined) return `Verity (${job.replaceAll('-', ' ').replaceAll(':', ' ')} job)`;
    return supportRequest === undefined ? storedReference : `${storedReference} (support, request ${supportRequest})`;
  }
  const person = actor.name ?? actor.email ?? actor.reference;
  switch (actor.kind) {
    case 'staff': {
      const request = actor.support_request ?? supportRequest;
      return request === undefined ? `${person} (provider staff)` : `${person} (support, request ${request})`;
    }
    case 'user':
      return actor.name !== undefined && actor.email !== undefined ? `${actor.name} (${actor.email})` : person;
    case 'client-app':
      return `client app ${actor.name ?? actor.reference.replace(/^app:/, '')}`;
    case 'device':
      return `device ${actor.reference.replace(/^device:/, '')}`;
    case 'job':
      return `Verity (${actor.name ?? actor.reference.replace(/^job:/, '')} job)`;
    default:
      return person;
  }
}
