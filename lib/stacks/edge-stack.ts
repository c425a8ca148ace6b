import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { pathPatternOf, publicEndpointsOf, type LimitedEndpoint } from '../config/public-routes.ts';
import type { StageConfig } from '../config/stage-config.ts';

export interface EdgeStackProps extends StackProps {
  readonly config: StageConfig;
  /** Every routed endpoint; the public ones (registry `auth: 'public'`) get the hardest rate limit. */
  readonly endpoints: readonly LimitedEndpoint[];
}

/** AWS managed rule groups, in the order they run (after the rate limits). */
export const MANAGED_RULE_GROUPS = [
  // Addresses AWS threat intelligence sees attacking (bots, scanners): cheapest to drop first.
  'AWSManagedRulesAmazonIpReputationList',
  // Request patterns of known exploits (Log4j, Java deserialisation, …).
  'AWSManagedRulesKnownBadInputsRuleSet',
  // OWASP-style common rules (XSS, LFI, bad bots, …).
  'AWSManagedRulesCommonRuleSet',
] as const;

/**
 * Common rule set rules that would refuse Verity's own traffic, so they only count: a tenant's bulk requests and a
 * migration's registration can be JSON bodies above the rule's 8 KB; API Gateway's 10 MB limit and the contract's
 * schemas bound them instead.
 */
const COUNTED_COMMON_RULES = ['SizeRestrictions_BODY'] as const;

/**
 * The device API is left out of the common rule set: a phone's log lines, SMS texts and alerts are recorded evidence
 * and may well contain `../`, `<script>` or a URL, which the set's body rules would refuse, and a device retrying a
 * refused upload forever loses the record. Device calls carry a device token, are validated by the contract, and
 * still meet the rate limits, IP reputation and known bad inputs.
 */
const DEVICE_PATH_PREFIX = '/device/';

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** A rate-limited caller is told so (429), not shown a bare 403. */
const TOO_MANY = { block: { customResponse: { responseCode: 429 } } };

/**
 * The WAF web ACL in front of the distribution. A CloudFront web ACL must live in us-east-1 whatever region the stage
 * is in, hence a stack of its own, pinned there; the web stack reads its ARN across regions.
 *
 * Rules, in order: a per-IP rate limit on the public endpoints (sign-in, token exchange, device authentication: where
 * secrets are guessed) far below the per-IP limit on everything, then the AWS managed groups.
 */
export class EdgeStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const { config } = props;
    const publicPaths = [...new Set(publicEndpointsOf(props.endpoints).map((endpoint) => endpoint.fullPath))];
    if (publicPaths.length === 0) throw new Error('no public endpoint: the WAF rule limiting them would match nothing');

    const pathStatements: CfnWebACL.StatementProperty[] = publicPaths.map((path) => ({
      regexMatchStatement: {
        regexString: pathPatternOf(path),
        fieldToMatch: { uriPath: {} },
        // `/api/v1/x/%75rl` is `/api/v1/x/url` to API Gateway: match the decoded path.
        textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
      },
    }));
    const publicPathStatement: CfnWebACL.StatementProperty =
      pathStatements.length === 1 ? pathStatements[0]! : { orStatement: { statements: pathStatements } };

    const rules: CfnWebACL.RuleProperty[] = [
      {
        name: 'PublicEndpointsPerIp',
        priority: 0,
        action: TOO_MANY,
        statement: {
          rateBasedStatement: {
            limit: config.waf.publicRequestsPerIp,
            evaluationWindowSec: 300,
            aggregateKeyType: 'IP',
            scopeDownStatement: publicPathStatement,
          },
        },
        visibilityConfig: visibility(`verity-${config.stage}-public-per-ip`),
      },
      {
        name: 'RequestsPerIp',
        priority: 1,
        action: TOO_MANY,
        statement: { rateBasedStatement: { limit: config.waf.requestsPerIp, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
        visibilityConfig: visibility(`verity-${config.stage}-per-ip`),
      },
      ...MANAGED_RULE_GROUPS.map(
        (name, index): CfnWebACL.RuleProperty => ({
          name,
          priority: 2 + index,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name,
              ...(name === 'AWSManagedRulesCommonRuleSet'
                ? {
                    ruleActionOverrides: COUNTED_COMMON_RULES.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
                    scopeDownStatement: {
                      notStatement: {
                        statement: {
                          byteMatchStatement: {
                            searchString: DEVICE_PATH_PREFIX,
                            fieldToMatch: { uriPath: {} },
                            positionalConstraint: 'STARTS_WITH',
                            textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
                          },
                        },
                      },
                    },
                  }
                : {}),
            },
          },
          visibilityConfig: visibility(`verity-${config.stage}-${name}`),
        }),
      ),
    ];

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `verity-${config.stage}-edge`,
      description: `Verity ${config.stage}: rate limits and AWS managed rules in front of the portal and API`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      rules,
      visibilityConfig: visibility(`verity-${config.stage}-edge`),
    });
    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.attrArn });
  }
}
