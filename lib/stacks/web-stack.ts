import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { CfnDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { contentSecurityPolicy, HSTS_MAX_AGE_SECONDS } from '../config/security-headers.ts';
import type { StageConfig } from '../config/stage-config.ts';
import { webAssetDir } from '../constructs/paths.ts';
import { logBucket } from '../constructs/log-bucket.ts';

export interface WebStackProps extends StackProps {
  readonly config: StageConfig;
  /** Host name of the HTTP API (its own domain, or `<id>.execute-api.<region>.amazonaws.com`), routed same-origin. */
  readonly apiDomainName: string;
  /** Bucket whose pre-signed URLs the portal plays and fetches (allowed by the CSP). */
  readonly processedBucket: IBucket;
  /** Bucket the portal uploads a migration's export file into, on a pre-signed URL (allowed by the CSP). */
  readonly rawBucket: IBucket;
  /** The WAF web ACL guarding the distribution (the edge stack's, or `webAclArn`); absent on a development edge. */
  readonly webAclArn?: string;
  /** Directory of the built portal; default: `web/dist` if built, else a placeholder page. */
  readonly webAssetDir?: string;
}

/** Paths CloudFront routes to the HTTP API, so the portal calls its API on its own origin. */
export const API_PATH_PATTERNS = ['/api/*', '/internal/*', '/device/*'] as const;

/**
 * SPA routing for the default (S3) behaviour only: a path whose last segment has no dot is a portal route,
 * served `/index.html`. A distribution-wide 403/404 → index.html error response would also rewrite the API's
 * own 403 and 404 JSON answers into a 200 HTML page, so the rewrite is scoped here instead.
 */
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/** The portal: a private bucket behind CloudFront (OAC), with the API on the same origin. */
export class WebStack extends Stack {
  readonly distribution: Distribution;
  readonly bucket: Bucket;
  /** `https://<portal domain>` without a trailing slash. */
  readonly portalUrl: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config } = props;

    // CloudFront standard logging writes with ACLs; it cannot deliver to a bucket that disables them.
    const logs = logBucket(this, 'Logs', { retentionDays: config.logRetentionDays, logsOf: 'the distribution and the web bucket', objectOwnership: ObjectOwnership.OBJECT_WRITER });

    this.bucket = new Bucket(this, 'Assets', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'web-bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // lib/config/security-headers.ts is the one definition; the local stack serves the same headers from it.
    const csp = contentSecurityPolicy({
      payloadOrigin: `https://${props.processedBucket.bucketRegionalDomainName}`,
      uploadOrigin: `https://${props.rawBucket.bucketRegionalDomainName}`,
      secure: true,
      extra: config.portalOrigins,
    });
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `Verity ${config.stage} security headers`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        xssProtection: { protection: false, override: true },
      },
    });

    const spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      code: FunctionCode.fromInline(SPA_REWRITE),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serves /index.html for portal routes',
    });

    const api = new HttpOrigin(props.apiDomainName, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
    });
    const apiBehavior: BehaviorOptions = {
      origin: api,
      // Devices POST here: a redirect from http would drop the body, so plain http is refused outright.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Every viewer header (Authorization included) except Host, which must be the API's own.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers,
    };

    const domain = config.customDomain;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Verity ${config.stage} portal`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: Object.fromEntries(API_PATH_PATTERNS.map((pattern) => [pattern, apiBehavior])),
      domainNames: domain ? [domain.name] : undefined,
      certificate: domain ? Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn) : undefined,
      minimumProtocolVersion: domain ? SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      httpVersion: HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
    });
    this.presentClientCertificate(config);
    this.portalUrl = `https://${domain?.name ?? this.distribution.distributionDomainName}`;

    this.suppressDistributionFindings(config, props.webAclArn);
    this.deployAssets(props.webAssetDir ?? webAssetDir());

    new CfnOutput(this, 'PortalUrl', { value: this.portalUrl });
    new CfnOutput(this, 'DistributionId', { value: this.distribution.distributionId });
  }

  /**
   * Hashed assets are immutable and cached for a year; `index.html`, `version.json` and `config.js` (the per-deployment
   * runtime config) are revalidated on every load and invalidated on deploy. Neither deployment prunes: a
   * portal tab still running the previous build keeps finding its chunks.
   */
  private deployAssets(sourceDir: string): void {
    const entryFiles = ['index.html', 'config.js', 'version.json'];
    new BucketDeployment(this, 'DeployAssets', {
      sources: [Source.asset(sourceDir, { exclude: entryFiles })],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
      memoryLimit: 512,
    });
    new BucketDeployment(this, 'DeployEntry', {
      sources: [Source.asset(sourceDir, { exclude: ['*', ...entryFiles.map((file) => `!${file}`)] })],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString('no-cache')],
      prune: false,
      memoryLimit: 512,
      distribution: this.distribution,
      distributionPaths: entryFiles.map((file) => `/${file}`),
    });
    // The deployment handler is CDK's own singleton Lambda (Python, with the AWS CLI layer).
    for (const child of this.node.children) {
      if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
      NagSuppressions.addResourceSuppressions(
        child,
        [
          { id: 'AwsSolutions-IAM4', reason: "CDK's BucketDeployment handler uses AWSLambdaBasicExecutionRole for its own logs; the role is not configurable." },
          { id: 'AwsSolutions-IAM5', reason: "CDK's BucketDeployment handler copies the staged asset objects into this stack's web bucket; its grants are object-wildcards on those two buckets." },
          { id: 'AwsSolutions-L1', reason: "CDK's BucketDeployment handler runtime is chosen by aws-cdk-lib and moves with its upgrades." },
        ],
        true,
      );
    }
  }

  /**
   * With the API on its own domain, CloudFront proves itself to it with a client certificate (origin mutual TLS): the
   * domain refuses any other caller, so the WAF cannot be gone around. The L2 origin has no option for it yet.
   */
  private presentClientCertificate(config: StageConfig): void {
    if (config.apiOrigin === undefined) return;
    const cfn = this.distribution.node.defaultChild as CfnDistribution;
    const resolved = this.resolve(cfn.distributionConfig) as { origins?: Array<{ domainName: unknown }> };
    const index = (resolved.origins ?? []).findIndex((origin) => origin.domainName === config.apiOrigin!.domainName);
    if (index < 0) throw new Error(`no CloudFront origin for the API domain ${config.apiOrigin.domainName}`);
    cfn.addPropertyOverride(`DistributionConfig.Origins.${index}.CustomOriginConfig.OriginMtlsConfig`, {
      ClientCertificateArn: config.apiOrigin.clientCertificateArn,
    });
  }

  private suppressDistributionFindings(config: StageConfig, webAclArn: string | undefined): void {
    const findings = [
      { id: 'AwsSolutions-CFR1', reason: 'Devices roam and tenants are international: the portal and device API cannot be geo-restricted; access is by token.' },
    ];
    if (webAclArn === undefined) {
      findings.push({
        id: 'AwsSolutions-CFR2',
        reason: 'A development edge (`developmentEdge`) without a pinned account: no edge stack makes the WAF web ACL. Every route authenticates and API Gateway throttles. Never for real recordings.',
      });
    }
    if (config.customDomain === undefined) {
      findings.push({
        id: 'AwsSolutions-CFR4',
        reason: 'Domain-less stage: the *.cloudfront.net certificate does not allow choosing the minimum TLS version. With customDomain, TLSv1.2_2021 applies.',
      });
    }
    NagSuppressions.addResourceSuppressions(this.distribution, findings);
  }
}
