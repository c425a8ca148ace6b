import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_GROUPS } from '#shared/contract/endpoint.ts';
import { parseStageConfig, replicaRegionOf } from '../../lib/config/stage-config.ts';
import { WEB_PLACEHOLDER_DIR } from '../../lib/constructs/paths.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { FIXTURE_ENDPOINTS } from './fixtures.ts';
import { cdkJsonContext, synthApp } from './synth.ts';

/**
 * The other branches of the stage config in one synth: cdk.json's prod stage plus a custom domain, a WAF web
 * ACL and optional tenant MFA; no handler written yet (every group falls back to the 501 placeholder, no jobs
 * function) and the placeholder portal page.
 */
const prod = (cdkJsonContext()['verity:stages'] as Record<string, object>).prod;
const config = parseStageConfig({
  ...prod,
  stage: 'prod',
  customDomain: { name: 'portal.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab' },
  webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/verity/0123abcd-0123-0123-0123-0123456789ab',
  apiOrigin: {
    domainName: 'api-origin.example.com',
    certificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab',
    truststoreUri: 's3://verity-prod-truststore/cloudfront-ca.pem',
    clientCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/4567abcd-0123-0123-0123-0123456789ab',
  },
  tenantMfa: 'optional',
  account: '123456789012',
  region: 'eu-west-2',
});

let stacks: VerityStacks;
let cleanup: () => void = () => {};
afterAll(() => cleanup());
beforeAll(() => {
  ({ stacks, cleanup } = synthApp({ config, endpoints: FIXTURE_ENDPOINTS, resolveEntry: () => undefined, webAssetDir: WEB_PLACEHOLDER_DIR }));
});

describe('prod-like stage', () => {
  it('sets the bucket-wide Object Lock default from the stage config', () => {
    const buckets = Template.fromStack(stacks.data).findResources('AWS::S3::Bucket', { Properties: { ObjectLockEnabled: true } });
    expect(Object.keys(buckets)).toHaveLength(2);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.Properties.ObjectLockConfiguration).toEqual({
        ObjectLockEnabled: 'Enabled',
        Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 30 } },
      });
    }
  });

  it('serves the custom domain with its certificate, TLS 1.2+ and the web ACL, and calls back to it', () => {
    const web = Template.fromStack(stacks.web);
    web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        Aliases: ['portal.example.com'],
        ViewerCertificate: { AcmCertificateArn: Match.stringLikeRegexp('^arn:aws:acm:us-east-1:'), MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
        WebACLId: config.webAclArn,
      },
    });
    const clients = Object.values(Template.fromStack(stacks.auth).findResources('AWS::Cognito::UserPoolClient'));
    for (const client of clients) expect(client.Properties.CallbackURLs).toEqual(['https://portal.example.com/sign-in']);
  });

  it('makes tenant MFA optional only where the config says so; staff MFA stays required', () => {
    const pools = Object.values(Template.fromStack(stacks.auth).findResources('AWS::Cognito::UserPool'));
    const byName = Object.fromEntries(pools.map((pool) => [pool.Properties.UserPoolName as string, pool.Properties.MfaConfiguration]));
    expect(byName).toEqual({ 'verity-prod-staff': 'ON', 'verity-prod-tenants': 'OPTIONAL' });
  });

  it('deploys the 501 placeholder for each unwritten group, and says so', () => {
    const warnings = Annotations.fromStack(stacks.api).findWarning('*', Match.stringLikeRegexp('does not exist'));
    expect(warnings).toHaveLength(ENDPOINT_GROUPS.length);
    Template.fromStack(stacks.api).resourceCountIs('AWS::ApiGatewayV2::Route', FIXTURE_ENDPOINTS.length);
  });

  it('deploys no jobs function and no schedules without lambdas/jobs, yet keeps the group and role', () => {
    const jobs = Template.fromStack(stacks.jobs);
    jobs.resourceCountIs('AWS::Lambda::Function', 0);
    jobs.resourceCountIs('AWS::Scheduler::Schedule', 0);
    jobs.resourceCountIs('AWS::Scheduler::ScheduleGroup', 2);
    const transfers = Template.fromStack(stacks.api).toJSON().Resources as Record<string, { Type: string; Properties: { Description?: string; Environment?: { Variables: object } } }>;
    const fn = Object.values(transfers).find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === 'Verity prod transfers endpoints')!;
    expect(fn.Properties.Environment!.Variables).not.toHaveProperty('SCHEDULER_TARGET_ARN');
  });

  it('uses the web ACL the stage names instead of making one', () => {
    expect(stacks.edge).toBeUndefined();
  });

  it('pins the stacks to the configured account and region, and the second copy to the paired region', () => {
    for (const [name, stack] of Object.entries(stacks)) {
      expect([stack.account, stack.region], name).toEqual(['123456789012', name === 'replica' ? replicaRegionOf(config) : 'eu-west-2']);
    }
    expect(stacks.replica).toBeDefined();
    expect(replicaRegionOf(config)).not.toBe('eu-west-2');
  });

  it('leaves no unsuppressed AwsSolutions finding in this variant either', () => {
    for (const stack of Object.values(stacks)) {
      const annotations = Annotations.fromStack(stack);
      const findings = [
        ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
        ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ].map((finding) => finding.id);
      expect(findings, stack.stackName).toEqual([]);
    }
  });
});
