import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ClientId, FirstName, Surname } from '#shared/contract/fields.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import { awsClients, COMMON_USAGE, emailOf, optionalField, parseCommand, report, runCommand, UsageError, type Io } from './cli.ts';
import { ensureCognitoUser, ensureGroup, ensurePortalUserItem, putIfAbsent, putSystemRole, type Step } from './provision.ts';
import { resolveStageResources } from './stage-resources.ts';
import { TENANT_ADMIN_ROLE, tenantItems } from './tenant-items.ts';

const USAGE = `Usage: npm run tenant -- create <client> --admin <email> [--name <display name>] [--stage <stage>] [options]

Creates a tenant in a deployed stage: its account item, account defaults and system roles (admin, reviewer) in the
table, exactly as the local seed writes them; then its first administrator in the tenants user pool (custom:client
<client>, group admin; the group is created if the pool lacks it) and that person's portal user item.
<client> is the tenant's name in URLs: 2 to 63 lower-case letters, digits and dashes (not "${ADMIN_CLIENT}", the
provider's own). --name is the display name (default: the client name).
${COMMON_USAGE}`;

/** A display name: printable, 1 to 100 characters. */
const DisplayName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}]+$/u, 'no control characters');

/** The tenant's name, as the contract's ClientId accepts it; the provider's own client is refused. */
export function clientOf(value: string | undefined): string {
  const parsed = ClientId.safeParse(value ?? '');
  if (!parsed.success) throw new UsageError(`Not a client name: ${JSON.stringify((value ?? '').slice(0, 80))}: ${parsed.error.issues[0]?.message ?? ''}`);
  if (parsed.data === ADMIN_CLIENT) throw new UsageError(`"${ADMIN_CLIENT}" is the provider's own client, not a tenant: use npm run staff for staff.`);
  return parsed.data;
}

/** `npm run tenant -- create …`: 0 done (or nothing to do), 1 refused, 2 usage. */
export async function main(argv: readonly string[], io: Io, now = () => new Date()): Promise<number> {
  return runCommand(io, USAGE, async () => {
    const { values, positionals } = parseCommand(argv, { admin: { type: 'string' }, name: { type: 'string' } });
    if (values.help) return io.out(USAGE);
    const [verb, rawClient, ...extra] = positionals;
    if (verb !== 'create' || extra.length > 0) throw new UsageError(verb === undefined ? 'Say what to do: create' : `Unknown command: ${[verb, ...extra].join(' ')}`);
    const client = clientOf(rawClient);
    if (values.admin === undefined) throw new UsageError("--admin <email> is required: the tenant's first administrator");
    const email = emailOf(values.admin);
    const displayName = optionalField(DisplayName, 'name', values.name) ?? client;
    const firstName = optionalField(FirstName, 'first-name', values['first-name']);
    const surname = optionalField(Surname, 'surname', values.surname);

    const aws = awsClients(values, io.env);
    try {
      const stage = values.stage ?? 'dev';
      const where = await resolveStageResources(aws.cloudFormation, { stage, table: values.table, userPool: values['user-pool'] }, 'tenantUserPoolId');
      const stamp = now().toISOString();
      const steps: Step[] = [];
      const names = ['account', 'account defaults', `role ${TENANT_ADMIN_ROLE}`, 'role reviewer'];
      for (const [index, item] of tenantItems(client, displayName, stamp, 'provisioning').entries()) {
        // System roles are brought up to this version's; the tenant's own items are only ever created.
        const put = item.is_system === true ? putSystemRole : putIfAbsent;
        steps.push(await put(aws.documents, where.tableName, item, names[index] ?? `item ${index + 1}`));
      }
      steps.push(await ensureGroup(aws.cognito, where.userPoolId, TENANT_ADMIN_ROLE, 'Tenant administrators: the admin system role of their tenant'));
      const user = await ensureCognitoUser(aws.cognito, {
        userPoolId: where.userPoolId,
        email,
        group: TENANT_ADMIN_ROLE,
        client,
        delivery: values['print-password'] ? 'print' : 'email',
      });
      steps.push(...user.steps);
      steps.push(await ensurePortalUserItem(aws.documents, where.tableName, { sub: user.sub, email, client, roles: [TENANT_ADMIN_ROLE], firstName, surname }, stamp));
      report(io, `Tenant ${client} on stage ${stage}`, where, steps);
      if (user.temporaryPassword !== undefined) io.out(`Temporary password of ${email} (valid 3 days, replaced at the first sign-in): ${user.temporaryPassword}`);
    } finally {
      aws.destroy();
    }
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2), { env: process.env, out: (line) => console.log(line), err: (line) => console.error(line) });
}
