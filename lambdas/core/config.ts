import * as z from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

const url = z.url({ error: 'must be a URL' });

const commaList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  )
  .pipe(z.array(z.string()).min(1, { error: 'must list at least one value' }));

/**
 * How a variable reaches a deployed function. The infrastructure test (test/infra/env-wiring.test.ts) reads these
 * declarations: every `platform` variable must be set on every function, a `where-read` variable on every function
 * whose bundled code names it, and a `job-function` one (at least one) on every function that bundles the job runner.
 * - platform: bound on every function (lib/stacks/platform-bindings.ts);
 * - runtime: set by the Lambda runtime itself (AWS_REGION);
 * - local: the local stack's stand-ins only, unset in AWS;
 * - defaulted: may be left unset, a default (or a derivation) applies;
 * - where-read: only some functions need it, and each that reads it must be given it;
 * - job-function: the name of a job function, given to a function that may start jobs there (the job runner reads the
 *   one a job runs in, chosen at run time, and refuses a start naming the variable when it is unset).
 */
export type Deployment = 'platform' | 'runtime' | 'local' | 'defaulted' | 'where-read' | 'job-function';

interface Variable<S extends z.ZodType = z.ZodType> {
  readonly deployment: Deployment;
  readonly schema: S;
}

const variable = <S extends z.ZodType>(deployment: Deployment, schema: S): Variable<S> => ({ deployment, schema });

/** An identity setting parsed leniently: missing or empty is unset, and fails where it is needed, naming it. */
const optionalText = z.string().trim().min(1).optional().catch(undefined);

/**
 * Every environment variable a function reads, declared once: its schema and how it is deployed. Functions read the
 * environment only through `getConfig()` (a test refuses `process.env` elsewhere in lambdas/).
 */
export const CONFIG_VARIABLES = {
  /** `local`: local adapters for keys, scheduler and scanner; `aws`: KMS, EventBridge Scheduler, GuardDuty tags. */
  VERITY_MODE: variable('platform', z.enum(['local', 'aws'], { error: 'must be local or aws' })),
  TABLE_NAME: variable('platform', z.string().min(1)),
  AWS_REGION: variable('runtime', z.string().min(1)),
  /** DynamoDB Local endpoint; unset in AWS. */
  DYNAMODB_ENDPOINT: variable('local', url.optional()),
  /**
   * The local stand-ins a tenant-supplied address may reach although they sit on loopback (docs/decisions.md
   * "Egress"): `host:port` entries, each one address and one port exactly. Set by the local stack; unset in AWS,
   * where nothing is excepted.
   */
  EGRESS_ALLOW: variable(
    'local',
    z
      .string()
      .optional()
      .transform((value) => (value ?? '').split(',').map((part) => part.trim()).filter((part) => part.length > 0)),
  ),
  /** s3rver endpoint; unset in AWS. */
  S3_ENDPOINT: variable('local', url.optional()),
  RAW_BUCKET: variable('platform', z.string().min(3)),
  PROCESSED_BUCKET: variable('platform', z.string().min(3)),
  /** The one issuer of portal user, tenant and staff id tokens (Cognito user pool or the local OIDC provider). */
  OIDC_ISSUER: variable('platform', url),
  /** Accepted portal app client ids (the `aud` of an id token). */
  OIDC_AUDIENCES: variable('platform', commaList),
  /** HMAC key for pagination cursors. Long enough that it cannot be guessed. */
  CURSOR_SECRET: variable('platform', z.string().min(32, { error: 'must be at least 32 characters' })),
  /** HMAC key for device tokens. Optional: when unset, derived from CURSOR_SECRET (auth/device-token.ts). */
  DEVICE_TOKEN_SECRET: variable('defaulted', z.string().min(32, { error: 'must be at least 32 characters' }).optional()),
  /** Local key material (master key file). Required in local mode. */
  DATA_DIR: variable('local', z.string().min(1).optional()),
  /** KMS key (id, ARN or alias) for platform secrets in AWS mode. */
  KMS_KEY_ID: variable('platform', z.string().min(1).optional()),
  /** KMS key (ARN) signing the audit trails' checkpoints (ECC_NIST_P256, SIGN_VERIFY). AWS mode; local mode signs with the local key service. */
  AUDIT_SIGNING_KEY_ID: variable('where-read', z.string().min(1).optional()),
  LOG_LEVEL: variable('defaulted', z.enum(['debug', 'info', 'warn', 'error']).default('info')),
  /** Days without a device authentication after which the inactivity job deactivates a device (docs/decisions.md). */
  DEVICE_INACTIVITY_DAYS: variable(
    'defaulted',
    z.coerce.number({ error: 'must be a whole number of days' }).int().min(1).max(3650).default(30),
  ),
  /**
   * Long jobs (transfers, migrations; docs/decisions.md "Jobs that always finish"): how long one invocation works
   * before it hands over to a fresh one. The jobs functions time out after 5 minutes, hence 4; tests shorten it so a
   * killed run's lease runs out within seconds.
   */
  LONG_JOB_BUDGET_SECONDS: variable('defaulted', z.coerce.number({ error: 'must be a whole number of seconds' }).int().min(1).max(270).default(240)),
  /** How far a long job's lease outlives its budget: past it, the invocation is taken as dead and the job-sweep resumes the job. */
  LONG_JOB_LEASE_MARGIN_SECONDS: variable('defaulted', z.coerce.number({ error: 'must be a whole number of seconds' }).int().min(1).max(3600).default(90)),
  /**
   * A production's parts (docs/productions.md "Parts"): a part's natives stop short of this many bytes (with its archive
   * beside it, a part must fit the function's temporary storage, 512 MB by default) and this many documents.
   */
  PRODUCTION_PART_BYTES: variable('defaulted', z.coerce.number({ error: 'must be a whole number of bytes' }).int().min(1).default(200 * 1024 * 1024)),
  PRODUCTION_PART_DOCUMENTS: variable('defaulted', z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(10_000).default(5_000)),
  /** Resumptions without progress after which the job-sweep ends a long job Failed (or PartialFail) with an ops alert. */
  JOB_RESUMPTION_LIMIT: variable('defaulted', z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(20).default(3)),
  /** Validate every response against its contract (true in local and test; defaults to true in local mode). */
  VALIDATE_RESPONSES: variable('defaulted', flag.optional()),
  /** EventBridge Scheduler: group, target (the transfer jobs function) and the role the scheduler assumes. AWS mode only. */
  SCHEDULE_GROUP: variable('where-read', z.string().min(1).optional()),
  SCHEDULER_TARGET_ARN: variable('where-read', z.string().min(1).optional()),
  SCHEDULER_ROLE_ARN: variable('where-read', z.string().min(1).optional()),
  /** The quarantine bucket GuardDuty scans processing's plaintext in (the jobs function only). AWS mode only. */
  SCAN_BUCKET: variable('where-read', z.string().min(1).optional()),
  /** The jobs function, which the API starts jobs on (asynchronous invoke). AWS mode only. */
  JOBS_FUNCTION_NAME: variable('job-function', z.string().min(1).optional()),
  /** The transfer jobs function, which runs the `transfer` job (run now, re-run, hand-over). AWS mode only. */
  TRANSFER_JOBS_FUNCTION_NAME: variable('job-function', z.string().min(1).optional()),
  /**
   * The Object Lock mode payload objects are retained in (docs/decisions.md "Object retention"): COMPLIANCE (no one,
   * not even the account's root, can shorten or remove it) unless set; local stacks default to GOVERNANCE, so a
   * developer can clear their own test data.
   */
  OBJECT_LOCK_MODE: variable('defaulted', z.enum(['COMPLIANCE', 'GOVERNANCE'], { error: 'must be COMPLIANCE or GOVERNANCE' }).optional()),
  /**
   * The portal's origin: where sign-in sends the browser back (identity) and the portal link a phone is given when it
   * authenticates (device-api). Local mode defaults to the local server (the local stack sets it to its own URL).
   */
  PORTAL_URL: variable('where-read', url.optional()),
  /** Staff pool issuer; in local mode staff use the same provider as tenants (identity). */
  STAFF_OIDC_ISSUER: variable('where-read', optionalText),
  /** AWS: the one Cognito app client all tenants share, and its pool (identity). */
  TENANT_CLIENT_ID: variable('where-read', optionalText),
  TENANT_USER_POOL_ID: variable('where-read', optionalText),
  /** AWS: the staff pool's app client and pool (identity). */
  STAFF_CLIENT_ID: variable('where-read', optionalText),
  STAFF_USER_POOL_ID: variable('where-read', optionalText),
} as const;

export type ConfigName = keyof typeof CONFIG_VARIABLES;

type Shape = { [K in ConfigName]: (typeof CONFIG_VARIABLES)[K]['schema'] };
const shape = Object.fromEntries(Object.entries(CONFIG_VARIABLES).map(([name, declared]) => [name, declared.schema])) as Shape;

/** Environment variables the Lambda handlers (and the local server, which sets them first) read. */
export const ConfigSchema = z
  .object(shape)
  .superRefine((env, context) => {
    if (env.VERITY_MODE === 'local' && env.DATA_DIR === undefined) {
      context.addIssue({ code: 'custom', path: ['DATA_DIR'], message: 'is required in local mode' });
    }
  })
  .transform((env) => ({
    ...env,
    VALIDATE_RESPONSES: env.VALIDATE_RESPONSES ?? env.VERITY_MODE === 'local',
    OBJECT_LOCK_MODE: env.OBJECT_LOCK_MODE ?? (env.VERITY_MODE === 'local' ? ('GOVERNANCE' as const) : ('COMPLIANCE' as const)),
  }));

export type Config = z.infer<typeof ConfigSchema>;

/** A missing or invalid variable. The message names every bad variable (never its value: some are secrets). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses an environment. Throws ConfigError naming each missing or invalid variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const result = ConfigSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    const missing = issue.code === 'invalid_type' && env[name] === undefined;
    return `${name}: ${missing ? 'is required' : issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

let memo: Config | undefined;

/**
 * The process configuration, parsed on first use rather than at import so the local server can set the
 * environment before any handler reads it. Memoised: a Lambda reads its environment once.
 */
export function getConfig(): Config {
  memo ??= loadConfig(process.env);
  return memo;
}

/** Forgets the memoised configuration (tests and the local server after changing the environment). */
export function resetConfig(): void {
  memo = undefined;
}
