import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { parseStageConfig } from '../../lib/config/stage-config.ts';
import { WEB_PLACEHOLDER_DIR } from '../../lib/constructs/paths.ts';
import { MANAGED_RULE_GROUPS } from '../../lib/stacks/edge-stack.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { cdkJsonContext, synthApp } from './synth.ts';

/**
 * CloudFront is the only way in, and it is guarded: a production stage (pinned, with its API origin) synthesised with
 * the real endpoint registry. The default `execute-api` endpoint is off, the API's own domain asks for CloudFront's
 * client certificate, a WAF web ACL in us-east-1 guards the distribution, and public routes are throttled hardest.
 */
const prod = (cdkJsonContext()['verity:stages'] as Record<string, object>).prod;
const apiOrigin = {
  domainName: 'api-origin.example.com',
  certificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab',
  truststoreUri: 's3://verity-prod-truststore/cloudfront-ca.pem',
  clientCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/4567abcd-0123-0123-0123-0123456789ab',
};
const config = parseStageConfig({ ...prod, stage: 'prod', account: '123456789012', region: 'eu-west-2', apiOrigin });
const publicEndpoints = ENDPOINTS.filter((endpoint) => endpoint.auth === 'public');

let stacks: VerityStacks;
let cleanup: () => void = () => {};
afterAll(() => cleanup());
beforeAll(() => {
  ({ stacks, cleanup } = synthApp({ config, endpoints: ENDPOINTS, resolveEntry: () => undefined, webAssetDir: WEB_PLACEHOLDER_DIR }));
});

type Rule = {
  Name: string;
  Priority: number;
  Action?: unknown;
  Statement: {
    RateBasedStatement?: { Limit: number; AggregateKeyType: string; EvaluationWindowSec: number; ScopeDownStatement?: { OrStatement: { Statements: Array<{ RegexMatchStatement: { RegexString: string } }> } } };
    ManagedRuleGroupStatement?: { VendorName: string; Name: string };
  };
};
function webAclRules(): Rule[] {
  const acls = Object.values(Template.fromStack(stacks.edge!).findResources('AWS::WAFv2::WebACL'));
  expect(acls).toHaveLength(1);
  expect(acls[0]!.Properties.Scope).toBe('CLOUDFRONT');
  return acls[0]!.Properties.Rules as Rule[];
}

describe('the API answers only through CloudFront', () => {
  it('disables the default execute-api endpoint', () => {
    Template.fromStack(stacks.gateway).hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
  });

  it("serves the API on its own domain, which asks for CloudFront's client certificate, mapped to the $default stage", () => {
    Template.fromStack(stacks.gateway).hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: apiOrigin.domainName,
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: apiOrigin.certificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' })],
      MutualTlsAuthentication: { TruststoreUri: apiOrigin.truststoreUri },
    });
    Template.fromStack(stacks.api).resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
  });

  it('sends /api/* to that domain and presents the client certificate there', () => {
    const distribution = Object.values(Template.fromStack(stacks.web).findResources('AWS::CloudFront::Distribution'))[0]!;
    const origins = distribution.Properties.DistributionConfig.Origins as Array<{ DomainName: unknown; CustomOriginConfig?: Record<string, unknown> }>;
    const api = origins.filter((origin) => origin.DomainName === apiOrigin.domainName);
    expect(api).toHaveLength(1);
    expect(api[0]!.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginMtlsConfig: { ClientCertificateArn: apiOrigin.clientCertificateArn } });
    expect(JSON.stringify(origins)).not.toContain('execute-api');
  });
});

describe('the WAF in front of the distribution', () => {
  it('lives in us-east-1 and is the web ACL of the distribution', () => {
    expect(stacks.edge!.region).toBe('us-east-1');
    const distribution = Object.values(Template.fromStack(stacks.web).findResources('AWS::CloudFront::Distribution'))[0]!;
    const webAclId = JSON.stringify(distribution.Properties.DistributionConfig.WebACLId);
    // Read across regions from the edge stack's WebAcl ARN.
    expect(webAclId).toMatch(/WebAcl.*Arn/);
  });

  it('runs the AWS managed rule groups: IP reputation, known bad inputs, common rules', () => {
    const managed = webAclRules().flatMap((rule) => (rule.Statement.ManagedRuleGroupStatement ? [rule.Statement.ManagedRuleGroupStatement] : []));
    expect(managed.map((group) => `${group.VendorName}/${group.Name}`).sort()).toEqual(
      ['AWS/AWSManagedRulesAmazonIpReputationList', 'AWS/AWSManagedRulesCommonRuleSet', 'AWS/AWSManagedRulesKnownBadInputsRuleSet'].sort(),
    );
    expect(MANAGED_RULE_GROUPS).toHaveLength(3);
  });

  it("keeps the common rules off the device API (a phone's recorded text is evidence) and only counts their body size rule", () => {
    const common = webAclRules().find((rule) => rule.Name === 'AWSManagedRulesCommonRuleSet')!.Statement.ManagedRuleGroupStatement as unknown as {
      ScopeDownStatement: unknown;
      RuleActionOverrides: unknown;
    };
    expect(common.ScopeDownStatement).toEqual({
      NotStatement: {
        Statement: {
          ByteMatchStatement: { SearchString: '/device/', FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH', TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }] },
        },
      },
    });
    expect(common.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
  });

  it('limits every client IP, and the public endpoints hardest, before any other rule', () => {
    const rules = webAclRules().sort((a, b) => a.Priority - b.Priority);
    const [first, second] = rules;
    for (const rule of [first!, second!]) {
      expect(rule.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
      expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
    }
    expect(first!.Statement.RateBasedStatement!.Limit).toBe(config.waf.publicRequestsPerIp);
    expect(second!.Statement.RateBasedStatement!.Limit).toBe(config.waf.requestsPerIp);
    expect(first!.Statement.RateBasedStatement!.Limit).toBeLessThan(second!.Statement.RateBasedStatement!.Limit);
    expect(second!.Statement.RateBasedStatement!.ScopeDownStatement).toBeUndefined();
  });

  it("scopes the hardest limit to exactly the registry's public endpoints", () => {
    const rule = webAclRules().find((candidate) => candidate.Name === 'PublicEndpointsPerIp')!;
    const patterns = rule.Statement.RateBasedStatement!.ScopeDownStatement!.OrStatement.Statements.map((statement) => new RegExp(statement.RegexMatchStatement.RegexString));
    const limited = (path: string) => patterns.some((pattern) => pattern.test(path));
    const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'acme');
    for (const endpoint of publicEndpoints) expect(limited(concrete(endpoint.fullPath)), endpoint.id).toBe(true);
    for (const endpoint of ENDPOINTS.filter((candidate) => candidate.auth !== 'public')) {
      // Two endpoints may share a path under different methods; only a path no public endpoint has must stay out.
      if (publicEndpoints.some((other) => other.fullPath === endpoint.fullPath)) continue;
      expect(limited(concrete(endpoint.fullPath)), endpoint.id).toBe(false);
    }
    expect(limited('/api/v1/acme/url/extra')).toBe(false);
  });
});

describe('per-route throttling', () => {
  it('throttles each public route below the stage-wide limit', () => {
    const stage = Object.values(Template.fromStack(stacks.api).findResources('AWS::ApiGatewayV2::Stage'))[0]!;
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: config.apiThrottle.rateLimit, ThrottlingBurstLimit: config.apiThrottle.burstLimit });
    const settings = stage.Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    expect(Object.keys(settings).sort()).toEqual(publicEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.fullPath}`).sort());
    for (const limits of Object.values(settings)) {
      expect(limits).toEqual({ ThrottlingRateLimit: config.publicRouteThrottle.rateLimit, ThrottlingBurstLimit: config.publicRouteThrottle.burstLimit });
      expect(limits.ThrottlingRateLimit).toBeLessThan(config.apiThrottle.rateLimit);
    }
  });

  it('makes the stage after every route it names', () => {
    const stage = Object.values(Template.fromStack(stacks.api).findResources('AWS::ApiGatewayV2::Stage'))[0]!;
    const routes = Object.keys(Template.fromStack(stacks.api).findResources('AWS::ApiGatewayV2::Route'));
    expect(stage.DependsOn).toEqual(expect.arrayContaining(routes));
  });
});

describe('cdk-nag', () => {
  it('leaves no unsuppressed AwsSolutions finding with the edge stack', () => {
    for (const stack of Object.values(stacks)) {
      const annotations = Annotations.fromStack(stack);
      const findings = [
        ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
        ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ].map((finding) => `${finding.id}: ${JSON.stringify(finding.entry.data)}`);
      expect(findings, stack.stackName).toEqual([]);
    }
  });
});
