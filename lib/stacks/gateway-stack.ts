import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config.ts';

export interface GatewayStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * The HTTP API itself: its `$default` stage, access logs and throttling. Routes and functions are attached by
 * the api stack.
 *
 * Why a stack of its own: the CloudFront distribution needs the API's domain (same-origin `/api/*`), the
 * Cognito app clients need the distribution's domain (callback URL), and the functions need the app client ids
 * (token audience). Holding the bare API here breaks that cycle: gateway → web → auth → api.
 */
export class GatewayStack extends Stack {
  readonly httpApi: HttpApi;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: GatewayStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `verity-${config.stage}`,
      description: `Verity ${config.stage}: admin, client, internal and device surfaces`,
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetentionDays, removalPolicy: RemovalPolicy.RETAIN });
    this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: config.apiThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        // HTTP API variables only; no query string (it may carry codes) and no headers (tokens).
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            sourceIp: '$context.identity.sourceIp',
            userAgent: '$context.identity.userAgent',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
  }

  /** The API's execute-api host name, for a CloudFront origin. */
  get apiDomainName(): string {
    return `${this.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
  }
}
