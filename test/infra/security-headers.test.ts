import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../lib/config/security-headers.ts';
import { WEB_PLACEHOLDER_DIR } from '../../lib/constructs/paths.ts';
import { WebStack } from '../../lib/stacks/web-stack.ts';
import { stageFromCdkJson } from './synth.ts';

/**
 * CloudFront's response headers policy is lib/config/security-headers.ts, the definition the local server serves
 * (scripts/local/security-headers.test.ts): rendered as the headers CloudFront writes, it is exactly that module's
 * answer for the stage's bucket origins, over https.
 */
type SecurityHeadersConfig = {
  ContentSecurityPolicy: { ContentSecurityPolicy: unknown; Override: boolean };
  StrictTransportSecurity: { AccessControlMaxAgeSec: number; IncludeSubdomains: boolean; Preload?: boolean; Override: boolean };
  ContentTypeOptions: { Override: boolean };
  FrameOptions: { FrameOption: string; Override: boolean };
  ReferrerPolicy: { ReferrerPolicy: string; Override: boolean };
  XSSProtection: { Protection: boolean; Override: boolean };
};

/** The headers CloudFront adds for a policy (its documented rendering of each setting). */
function rendered(config: SecurityHeadersConfig): Record<string, unknown> {
  const hsts = config.StrictTransportSecurity;
  return {
    'content-security-policy': config.ContentSecurityPolicy.ContentSecurityPolicy,
    'strict-transport-security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': config.FrameOptions.FrameOption,
    'referrer-policy': config.ReferrerPolicy.ReferrerPolicy,
    'x-xss-protection': config.XSSProtection.Protection ? '1' : '0',
  };
}

describe('CloudFront security headers', () => {
  it('are the shared definition, for the stage bucket origins, overriding whatever an origin sends', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const buckets = new Stack(app, 'Buckets');
    const processed = new Bucket(buckets, 'Processed');
    const raw = new Bucket(buckets, 'Raw');
    // The deploy-time origins of browser monitoring and map tiles join the policy.
    const portalOrigins = { connect: ['https://dataplane.rum.eu-west-2.amazonaws.com'], img: ['https://tiles.example.com'] };
    const web = new WebStack(app, 'Web', {
      config: { ...stageFromCdkJson('dev'), portalOrigins },
      apiDomainName: 'api.example.com',
      processedBucket: processed,
      rawBucket: raw,
      webAssetDir: WEB_PLACEHOLDER_DIR,
    });
    const policies = Object.values(Template.fromStack(web).findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policies).toHaveLength(1);
    const config = policies[0]!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig as SecurityHeadersConfig;
    const expected = web.resolve(
      securityHeaders({
        payloadOrigin: `https://${processed.bucketRegionalDomainName}`,
        uploadOrigin: `https://${raw.bucketRegionalDomainName}`,
        secure: true,
        extra: portalOrigins,
      }),
    );
    expect(rendered(config)).toEqual(expected);
    for (const setting of Object.values(config)) expect(setting.Override).toBe(true);
    // The portal uploads a migration's export file straight into the raw bucket: the CSP must let it connect there.
    const csp = JSON.stringify(config.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toMatch(/connect-src 'self' https:\/\/.*Processed.*Raw.* https:\/\/dataplane\.rum\.eu-west-2\.amazonaws\.com;/);
    expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/.*Processed.* https:\/\/tiles\.example\.com;/);
  });
});
