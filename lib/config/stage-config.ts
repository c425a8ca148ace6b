import { z } from 'zod';

/**
 * One deployment stage (dev, prod, …), parsed from `cdk.json` context `verity:stages.<stage>`.
 *
 * Stacks are environment-agnostic unless `account` and `region` are both given: synth must work offline,
 * without credentials and without lookups. No custom domain is needed: without one the portal is served from
 * the CloudFront domain.
 */
export const ObjectLockDefault = z.strictObject({
  /**
   * GOVERNANCE lets a principal with `s3:BypassGovernanceRetention` shorten or remove the retention (a legal
   * officer fixing a mistake); COMPLIANCE cannot be shortened by anyone, root included, until it expires.
   * Start with GOVERNANCE; switch to COMPLIANCE only once the tenants' retention periods are agreed.
   */
  mode: z.enum(['GOVERNANCE', 'COMPLIANCE']),
  days: z.number().int().min(1).max(36_500),
});
export type ObjectLockDefault = z.infer<typeof ObjectLockDefault>;

/** A custom portal domain; its ACM certificate must already exist in us-east-1 (CloudFront's region). */
export const CustomDomain = z.strictObject({
  name: z.string().regex(/^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a lower-case DNS name'),
  certificateArn: z.string().regex(/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/, 'an ACM certificate ARN in us-east-1'),
});
export type CustomDomain = z.infer<typeof CustomDomain>;

/** A WAF rate-based limit: at most this many requests from one IP address in any 5-minute window (WAF's minimum is 10). */
const RequestsPer5Minutes = z.number().int().min(10).max(2_000_000_000);

/**
 * The API's own domain, CloudFront's origin once the default `execute-api` endpoint is disabled. Only CloudFront may
 * use it: the domain requires mutual TLS (`truststoreUri`, the CA that signed CloudFront's client certificate), and
 * the distribution presents `clientCertificateArn` (docs/decisions.md, "Edge").
 */
export const ApiOrigin = z.strictObject({
  domainName: z.string().regex(/^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a lower-case DNS name'),
  /** The API domain's server certificate: ACM, in the stage's own region (a regional API domain). */
  certificateArn: z.string().regex(/^arn:aws[a-z-]*:acm:[a-z]{2}(-gov)?-[a-z]+-\d:\d{12}:certificate\/[0-9a-f-]{36}$/, 'an ACM certificate ARN'),
  /** `s3://<bucket>/<key>`: the PEM bundle of the CA(s) whose client certificates the API domain accepts. */
  truststoreUri: z.string().regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/.+$/, 's3://<bucket>/<key> of a PEM truststore'),
  /** The client certificate CloudFront presents to the API domain: ACM, in us-east-1 (CloudFront's region). */
  clientCertificateArn: z.string().regex(/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/, 'an ACM certificate ARN in us-east-1'),
});
export type ApiOrigin = z.infer<typeof ApiOrigin>;

export const StageConfig = z.strictObject({
  /** Short lower-case name; prefixes stack names (`verity-<stage>-data`). */
  stage: z.string().regex(/^[a-z][a-z0-9-]{0,15}$/, 'lower-case letters, digits and dashes, at most 16'),
  account: z.string().regex(/^\d{12}$/, '12 digits').optional(),
  region: z.string().regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'an AWS region such as eu-west-2').optional(),
  /**
   * Prefix of the Cognito hosted UI domains (`<prefix>-staff`, `<prefix>-tenants`). Globally unique per region;
   * Cognito refuses prefixes containing `aws`, `amazon` or `cognito`.
   */
  authDomainPrefix: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,52}[a-z0-9])?$/, 'lower-case letters, digits and dashes')
    .refine((prefix) => !/aws|amazon|cognito/.test(prefix), 'must not contain aws, amazon or cognito'),
  /** Tenant users' MFA: required by default; `optional` only where tenants enforce MFA in their own IdP. */
  tenantMfa: z.enum(['required', 'optional']).default('required'),
  /** Extra OAuth callback origins (e.g. `http://localhost:3000` for a developer portal against a dev stage). */
  extraPortalOrigins: z.array(z.url({ protocol: /^https?$/ }).refine((url) => !url.endsWith('/'), 'no trailing slash')).default([]),
  customDomain: CustomDomain.optional(),
  /**
   * A WAFv2 web ACL (scope CLOUDFRONT, in us-east-1) managed outside these stacks (e.g. by Firewall Manager), used
   * instead of the one the edge stack makes. It must hold at least the rules that one holds (docs/deploying.md).
   */
  webAclArn: z.string().regex(/^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/.+$/).optional(),
  /**
   * Origins the portal's deploy-time `config.js` makes it use, added to the CSP (lib/config/security-headers.ts):
   * `connect` for browser monitoring (RUM's data plane and Cognito identity endpoints), `img` for the map tiles.
   */
  portalOrigins: z
    .strictObject({
      connect: z.array(z.url({ protocol: /^https$/ }).refine((url) => new URL(url).origin === url, 'an origin: https://host, no path or trailing slash')).default([]),
      img: z.array(z.url({ protocol: /^https$/ }).refine((url) => new URL(url).origin === url, 'an origin: https://host, no path or trailing slash')).default([]),
    })
    .default({ connect: [], img: [] }),
  /** The API's own domain behind CloudFront; with it the default `execute-api` endpoint is disabled. */
  apiOrigin: ApiOrigin.optional(),
  /**
   * A development stage without a domain or a pinned account: waives the API origin (the `execute-api` endpoint stays
   * open) and, when no account and region are given, the WAF. Never for a stage that holds real recordings.
   */
  developmentEdge: z.boolean().default(false),
  /** The edge stack's WAF rate limits per client IP address and 5-minute window. */
  waf: z
    .strictObject({
      /** Any request. */
      requestsPerIp: RequestsPer5Minutes,
      /** Requests to the endpoints anyone may call (sign-in, token exchange, device authentication): limited hardest. */
      publicRequestsPerIp: RequestsPer5Minutes,
    })
    .refine((limits) => limits.publicRequestsPerIp < limits.requestsPerIp, { message: 'must be below requestsPerIp', path: ['publicRequestsPerIp'] })
    .default({ requestsPerIp: 3000, publicRequestsPerIp: 100 }),
  /**
   * The Object Lock mode the app sets on each processed recording (its retention follows the tenant's policy):
   * COMPLIANCE, which no one can shorten or remove, is what SEC 17a-4(f) asks of WORM storage. A test stage may choose
   * GOVERNANCE, so its test recordings can be cleared by someone allowed to bypass it.
   */
  payloadRetentionMode: z.enum(['COMPLIANCE', 'GOVERNANCE']).default('COMPLIANCE'),
  /** Bucket-wide Object Lock default for payload buckets; absent: Object Lock on, retention set per object by the app. */
  payloadObjectLock: ObjectLockDefault.optional(),
  /**
   * The second region holding a copy of every recording (S3 replication with Object Lock) and of the table (AWS Backup
   * copies), lib/stacks/replica-stack.ts. Absent on a stage that names its account and region and is not a development
   * edge: the region's usual pair (`DEFAULT_REPLICA_REGIONS`). `false`: no second copy (a test stage; never one that holds
   * real recordings). A development stage gets none unless it names one.
   */
  replicaRegion: z.union([z.string().regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'an AWS region such as eu-west-1'), z.literal(false)]).optional(),
  /** Days to keep Lambda, API access and CloudFront logs. */
  logRetentionDays: z.union([z.literal(30), z.literal(90), z.literal(180), z.literal(365), z.literal(731), z.literal(3653)]).default(365),
  /** API throttling for the whole stage, per second. */
  apiThrottle: z.strictObject({ rateLimit: z.number().int().min(1), burstLimit: z.number().int().min(1) }).default({ rateLimit: 200, burstLimit: 400 }),
  /**
   * Throttling of each public route (sign-in, token exchange, device authentication), per second, for all callers
   * together: a flood of them cannot take the stage's whole budget from signed-in users and devices.
   */
  publicRouteThrottle: z.strictObject({ rateLimit: z.number().int().min(1), burstLimit: z.number().int().min(1) }).default({ rateLimit: 20, burstLimit: 40 }),
});
export type StageConfig = z.infer<typeof StageConfig>;

/** Context key under which `cdk.json` holds one object per stage name. */
export const STAGES_CONTEXT_KEY = 'verity:stages';
/** Context key selecting the stage (`npx cdk synth -c stage=prod`). */
export const STAGE_CONTEXT_KEY = 'stage';
export const DEFAULT_STAGE = 'dev';

/**
 * Picks and parses the stage config from CDK context. Fails loudly, naming every bad field, so a typo in
 * `cdk.json` never deploys a half-configured stage.
 */
export function stageConfigFromContext(tryGetContext: (key: string) => unknown): StageConfig {
  const stage = tryGetContext(STAGE_CONTEXT_KEY) ?? DEFAULT_STAGE;
  if (typeof stage !== 'string') throw new Error(`context "${STAGE_CONTEXT_KEY}" must be a string`);
  const stages = tryGetContext(STAGES_CONTEXT_KEY);
  if (stages === null || typeof stages !== 'object' || !Object.hasOwn(stages, stage)) {
    throw new Error(`no stage "${stage}" under context "${STAGES_CONTEXT_KEY}" in cdk.json`);
  }
  return parseStageConfig({ ...(stages as Record<string, object>)[stage], stage });
}

export function parseStageConfig(input: unknown): StageConfig {
  const result = StageConfig.safeParse(input);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`invalid stage config:\n${lines.join('\n')}`);
  }
  const config = result.data;
  if ((config.account === undefined) !== (config.region === undefined)) {
    throw new Error('invalid stage config:\naccount: give both account and region, or neither (environment-agnostic)');
  }
  return withReplicaRegion(checkEdge(config));
}

/**
 * The second region a production stage copies to when it names none: a region in the same jurisdiction (data residency)
 * but a separate geography, so one regional event cannot take both copies.
 */
export const DEFAULT_REPLICA_REGIONS: Readonly<Record<string, string>> = {
  'eu-west-2': 'eu-west-1',
  'eu-west-1': 'eu-central-1',
  'eu-central-1': 'eu-west-1',
  'us-east-1': 'us-west-2',
  'us-east-2': 'us-west-2',
  'us-west-2': 'us-east-1',
  'ca-central-1': 'ca-west-1',
  'ap-southeast-2': 'ap-southeast-4',
};

/** The stage's second region, resolved: `undefined` when the stage keeps no second copy. */
export function replicaRegionOf(config: StageConfig): string | undefined {
  return config.replicaRegion === false ? undefined : config.replicaRegion;
}

/**
 * Fills in the default second region and refuses one that cannot work: the replica's buckets and vault are named from
 * the account (no cross-region lookups at deploy time), and a copy in the same region is no second copy.
 */
function withReplicaRegion(config: StageConfig): StageConfig {
  const resolved =
    config.replicaRegion === undefined && !config.developmentEdge && config.region !== undefined ? DEFAULT_REPLICA_REGIONS[config.region] : config.replicaRegion;
  if (typeof resolved === 'string') {
    if (config.account === undefined || config.region === undefined) {
      throw new Error('invalid stage config:\nreplicaRegion: needs the stage\'s account and region (the replica stack is pinned to its own region)');
    }
    if (resolved === config.region) throw new Error('invalid stage config:\nreplicaRegion: must differ from region (a copy in the same region is no second copy)');
  }
  return resolved === undefined ? config : { ...config, replicaRegion: resolved };
}

/**
 * CloudFront must be the only way in: the API's default endpoint is disabled (which needs `apiOrigin`) and a WAF web
 * ACL guards the distribution (which the edge stack makes in us-east-1, so the stage must name its account and region,
 * or `webAclArn` names one). Only a stage marked `developmentEdge` may go without.
 */
function checkEdge(config: StageConfig): StageConfig {
  if (config.developmentEdge) return config;
  const problems: string[] = [];
  if (config.apiOrigin === undefined) {
    problems.push('apiOrigin: required: CloudFront reaches the API on its own domain, with the execute-api endpoint disabled (docs/deploying.md, "Edge")');
  }
  if (config.webAclArn === undefined && config.account === undefined) {
    problems.push('account: required (with region) for the edge stack to make the WAF web ACL in us-east-1, unless webAclArn names one');
  }
  if (problems.length > 0) {
    throw new Error(`invalid stage config:\n${problems.join('\n')}\n(a development stage may set developmentEdge: true instead)`);
  }
  return config;
}
