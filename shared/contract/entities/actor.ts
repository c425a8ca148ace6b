import * as z from 'zod';

/**
 * What kind of caller acted: a tenant's portal user, provider staff (on the internal console or in support mode), a
 * tenant's client app, a managed device, a scheduled or started job, or nobody authenticated.
 */
export const ActorKind = z.enum(['user', 'staff', 'client-app', 'device', 'job', 'unknown']);
export type ActorKind = z.infer<typeof ActorKind>;

/**
 * Who did something, as a record keeps it (docs/data-model.md, "Who acted"). `reference` is the one stable reference
 * every record names the actor by (lambdas/core/auth/actor.ts `actorOf`: a portal user's reference, `staff:<sub>`,
 * `app:<reference>`, `device:<reference>`, `job:<name>`); the spec's own fields (`portal_user`, `raised_by`,
 * `updated_by`, `user_id`, …) hold that same reference. The display fields are copied from the caller's token at the
 * time of the act, so a screen shows the person as they were named then without looking anyone up, and a person
 * since removed is still shown truthfully. `support_request` is set when staff acted in support mode.
 */
export const Actor = z.object({
  reference: z.string().min(1),
  kind: ActorKind,
  name: z.string().optional(),
  email: z.string().optional(),
  support_request: z.string().optional(),
});
export type Actor = z.infer<typeof Actor>;
