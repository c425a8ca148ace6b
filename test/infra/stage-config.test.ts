import { describe, expect, it } from 'vitest';
import { STAGES_CONTEXT_KEY, parseStageConfig, stageConfigFromContext } from '../../lib/config/stage-config.ts';
import { cdkJsonContext } from './synth.ts';

const minimal = { stage: 'dev', authDomainPrefix: 'verity-dev', developmentEdge: true };

const apiOrigin = {
  domainName: 'api-origin.example.com',
  certificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab',
  truststoreUri: 's3://verity-truststore/cloudfront-ca.pem',
  clientCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab',
};

function contextOf(values: Record<string, unknown>): (key: string) => unknown {
  return (key) => values[key];
}

describe('stage config', () => {
  it('parses every stage in cdk.json; prod names the edge it still needs before it can deploy', () => {
    const stages = cdkJsonContext()[STAGES_CONTEXT_KEY] as Record<string, object>;
    expect(Object.keys(stages)).toEqual(expect.arrayContaining(['dev', 'prod']));
    for (const stage of Object.keys(stages).filter((name) => name !== 'prod')) {
      const config = stageConfigFromContext(contextOf({ stage, [STAGES_CONTEXT_KEY]: stages }));
      expect(config.stage).toBe(stage);
    }
    // The repository's prod stage is a template: an operator adds the account, region and API origin (docs/deploying.md).
    expect(() => stageConfigFromContext(contextOf({ stage: 'prod', [STAGES_CONTEXT_KEY]: stages }))).toThrow(/apiOrigin: required[\s\S]*account: required/);
  });

  it('refuses a stage without its edge (API origin, WAF) unless it is a development edge', () => {
    const { developmentEdge: _, ...production } = minimal;
    expect(() => parseStageConfig(production)).toThrow('apiOrigin: required');
    expect(() => parseStageConfig({ ...production, account: '123456789012', region: 'eu-west-2' })).toThrow('apiOrigin: required');
    expect(() => parseStageConfig({ ...production, apiOrigin })).toThrow('account: required (with region)');
    expect(parseStageConfig({ ...production, apiOrigin, account: '123456789012', region: 'eu-west-2' }).developmentEdge).toBe(false);
    expect(parseStageConfig({ ...production, apiOrigin, webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/verity/x' }).apiOrigin).toEqual(apiOrigin);
  });

  it('fills defaults: required tenant MFA, a year of logs, no bucket-wide Object Lock default', () => {
    const config = parseStageConfig(minimal);
    expect(config).toMatchObject({ tenantMfa: 'required', logRetentionDays: 365, extraPortalOrigins: [], apiThrottle: { rateLimit: 200, burstLimit: 400 } });
    expect(config.payloadObjectLock).toBeUndefined();
  });

  it('defaults to the dev stage and names a missing stage', () => {
    const stages = { dev: { authDomainPrefix: 'verity-dev', developmentEdge: true } };
    expect(stageConfigFromContext(contextOf({ [STAGES_CONTEXT_KEY]: stages })).stage).toBe('dev');
    expect(() => stageConfigFromContext(contextOf({ stage: 'qa', [STAGES_CONTEXT_KEY]: stages }))).toThrow('no stage "qa"');
    expect(() => stageConfigFromContext(contextOf({ stage: '__proto__', [STAGES_CONTEXT_KEY]: stages }))).toThrow('no stage "__proto__"');
    expect(() => stageConfigFromContext(contextOf({ stage: 'dev' }))).toThrow('no stage "dev"');
    expect(() => stageConfigFromContext(contextOf({ stage: 7, [STAGES_CONTEXT_KEY]: stages }))).toThrow('must be a string');
  });

  it('does not let a stage entry rename itself', () => {
    const stages = { dev: { stage: 'prod', authDomainPrefix: 'verity-dev', developmentEdge: true } };
    expect(stageConfigFromContext(contextOf({ stage: 'dev', [STAGES_CONTEXT_KEY]: stages })).stage).toBe('dev');
  });

  it.each([
    [{ ...minimal, stage: 'Dev' }, 'stage:'],
    [{ ...minimal, stage: 'dev stage' }, 'stage:'],
    [{ ...minimal, stage: 'a'.repeat(17) }, 'stage:'],
    [{ ...minimal, authDomainPrefix: 'my-aws-portal' }, 'authDomainPrefix: must not contain aws'],
    [{ ...minimal, authDomainPrefix: 'cognito-verity' }, 'authDomainPrefix:'],
    [{ ...minimal, authDomainPrefix: '-verity' }, 'authDomainPrefix:'],
    [{ ...minimal, account: '12345' }, 'account:'],
    [{ ...minimal, account: '123456789012' }, 'account: give both account and region'],
    [{ ...minimal, region: 'eu-west-2' }, 'account: give both account and region'],
    [{ ...minimal, region: 'mars-1', account: '123456789012' }, 'region:'],
    [{ ...minimal, tenantMfa: 'off' }, 'tenantMfa:'],
    [{ ...minimal, extraPortalOrigins: ['javascript:alert(1)'] }, 'extraPortalOrigins.0:'],
    [{ ...minimal, extraPortalOrigins: ['https://portal.example.com/'] }, 'no trailing slash'],
    [{ ...minimal, payloadObjectLock: { mode: 'LEGAL', days: 30 } }, 'payloadObjectLock.mode:'],
    [{ ...minimal, payloadObjectLock: { mode: 'COMPLIANCE', days: 0 } }, 'payloadObjectLock.days:'],
    [{ ...minimal, logRetentionDays: 7 }, 'logRetentionDays:'],
    [{ ...minimal, customDomain: { name: 'portal.example.com', certificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab' } }, 'customDomain.certificateArn:'],
    [{ ...minimal, webAclArn: 'arn:aws:wafv2:eu-west-2:123456789012:regional/webacl/x' }, 'webAclArn:'],
    [{ ...minimal, apiOrigin: { ...apiOrigin, clientCertificateArn: apiOrigin.certificateArn } }, 'apiOrigin.clientCertificateArn:'],
    [{ ...minimal, apiOrigin: { ...apiOrigin, truststoreUri: 'https://example.com/ca.pem' } }, 'apiOrigin.truststoreUri:'],
    [{ ...minimal, waf: { requestsPerIp: 100, publicRequestsPerIp: 500 } }, 'waf.publicRequestsPerIp: must be below'],
    [{ ...minimal, waf: { requestsPerIp: 100, publicRequestsPerIp: 5 } }, 'waf.publicRequestsPerIp:'],
    [{ ...minimal, portalOrigins: { connect: ['https://rum.example.com/path'] } }, 'portalOrigins.connect.0:'],
    [{ ...minimal, portalOrigins: { img: ['http://tiles.example.com'] } }, 'portalOrigins.img.0:'],
    [{ ...minimal, surprise: true }, 'surprise'],
    [null, '(root)'],
  ])('refuses %j', (input, message) => {
    expect(() => parseStageConfig(input)).toThrow(message);
  });
});
