import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { DomainName, EndpointType, HttpApi, SecurityPolicy } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config.ts';

export interface GatewayStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * The HTTP API itself, its access log group and, with `apiOrigin`, its own domain. Routes, functions and the
 * `$default` stage are attached by the api stack (the stage's per-route throttles name routes that must exist first).
 *
 * Why a stack of its own: the CloudFront distribution needs the API's domain (same-origin `/api/*`), the
 * Cognito app clients need the distribution's domain (callback URL), and the functions need the app client ids
 * (token audience). Holding the bare API here breaks that cycle: gateway → web → auth → api.
 *
 * CloudFront is the only way in (docs/decisions.md, "Edge"): with `apiOrigin` the default `execute-api` endpoint is
 * disabled and the API answers only on its own domain, which requires the client certificate CloudFront presents.
 */
export class GatewayStack extends Stack {
  readonly httpApi: HttpApi;
  readonly accessLogs: LogGroup;
  /** The API's own domain (mutual TLS), mapped to the `$default` stage by the api stack; absent on a development edge. */
  readonly apiDomain?: DomainName;
  private readonly config: StageConfig;

  constructor(scope: Construct, id: string, props: GatewayStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.config = config;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `verity-${config.stage}`,
      description: `Verity ${config.stage}: admin, client, internal and device surfaces`,
      createDefaultStage: false,
      disableExecuteApiEndpoint: config.apiOrigin !== undefined,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetentionDays, removalPolicy: RemovalPolicy.RETAIN });

    const origin = config.apiOrigin;
    if (origin !== undefined) {
      const truststore = /^s3:\/\/([^/]+)\/(.+)$/.exec(origin.truststoreUri)!;
      this.apiDomain = new DomainName(this, 'ApiDomain', {
        domainName: origin.domainName,
        certificate: Certificate.fromCertificateArn(this, 'ApiCertificate', origin.certificateArn),
        endpointType: EndpointType.REGIONAL,
        securityPolicy: SecurityPolicy.TLS_1_2,
        mtls: { bucket: Bucket.fromBucketName(this, 'Truststore', truststore[1]!), key: truststore[2]! },
      });
      new CfnOutput(this, 'ApiDomainTarget', {
        description: `Point ${origin.domainName} here (CNAME, or a Route 53 alias)`,
        value: this.apiDomain.regionalDomainName,
      });
    }
  }

  /** The host name CloudFront sends `/api/*` to: the API's own domain, or `execute-api` on a development edge. */
  get apiDomainName(): string {
    return this.config.apiOrigin?.domainName ?? `${this.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
  }
}
