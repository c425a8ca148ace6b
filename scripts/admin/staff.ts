import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FirstName, Surname } from '#shared/contract/fields.ts';
import { STAFF_ROLES } from '#shared/permissions/staff-roles.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import { awsClients, COMMON_USAGE, emailOf, optionalField, parseCommand, report, runCommand, UsageError, type Io } from './cli.ts';
import { ensureCognitoUser, ensurePortalUserItem, type Step } from './provision.ts';
import { resolveStageResources } from './stage-resources.ts';

const ROLES = Object.keys(STAFF_ROLES);

const USAGE = `Usage: npm run staff -- create <email> --role ${ROLES.join('|')} [--stage <stage>] [options]

Creates a member of the provider's staff in a deployed stage: a user of the staff user pool in the group of the
staff role (staff: the whole internal console; support: reads it, changes nothing), and the portal user item the
internal console's staff list shows. Staff sign in with two factors: Cognito asks for a TOTP app at the first
sign-in.
${COMMON_USAGE}`;

/** `npm run staff -- create …`: 0 done (or nothing to do), 1 refused, 2 usage. */
export async function main(argv: readonly string[], io: Io, now = () => new Date()): Promise<number> {
  return runCommand(io, USAGE, async () => {
    const { values, positionals } = parseCommand(argv, { role: { type: 'string' } });
    if (values.help) return io.out(USAGE);
    const [verb, rawEmail, ...extra] = positionals;
    if (verb !== 'create' || extra.length > 0) throw new UsageError(verb === undefined ? 'Say what to do: create' : `Unknown command: ${[verb, ...extra].join(' ')}`);
    const email = emailOf(rawEmail);
    const role = values.role;
    if (role === undefined || !Object.hasOwn(STAFF_ROLES, role)) {
      throw new UsageError(`--role must be one of ${ROLES.join(', ')}${role === undefined ? '' : `, not ${JSON.stringify(role.slice(0, 40))}`}`);
    }
    const firstName = optionalField(FirstName, 'first-name', values['first-name']);
    const surname = optionalField(Surname, 'surname', values.surname);

    const aws = awsClients(values, io.env);
    try {
      const stage = values.stage ?? 'dev';
      const where = await resolveStageResources(aws.cloudFormation, { stage, table: values.table, userPool: values['user-pool'] }, 'staffUserPoolId');
      const stamp = now().toISOString();
      // The staff pool's groups are the staff roles, declared by the auth stack: never created here.
      const user = await ensureCognitoUser(aws.cognito, { userPoolId: where.userPoolId, email, group: role, delivery: values['print-password'] ? 'print' : 'email' });
      const steps: Step[] = [...user.steps];
      steps.push(await ensurePortalUserItem(aws.documents, where.tableName, { sub: user.sub, email, client: ADMIN_CLIENT, roles: [role], firstName, surname }, stamp));
      report(io, `Staff member ${email} (${role}) on stage ${stage}`, where, steps);
      if (user.temporaryPassword !== undefined) io.out(`Temporary password of ${email} (valid 3 days, replaced at the first sign-in): ${user.temporaryPassword}`);
    } finally {
      aws.destroy();
    }
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2), { env: process.env, out: (line) => console.log(line), err: (line) => console.error(line) });
}
