import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { type CfnStage, type IDomainName, type IHttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { publicEndpointsOf, type LimitedEndpoint } from '../config/public-routes.ts';
import type { StageConfig } from '../config/stage-config.ts';

export interface ApiStageProps {
  readonly config: StageConfig;
  readonly httpApi: IHttpApi;
  readonly accessLogs: ILogGroup;
  /** Every routed endpoint; the public ones get `config.publicRouteThrottle`. */
  readonly endpoints: readonly LimitedEndpoint[];
  /** The API's own domain, mapped to this stage. */
  readonly domainName?: IDomainName;
}

/**
 * The HTTP API's `$default` stage: access logs, the stage-wide throttle, and a tighter throttle on every public route
 * (route settings), so a flood of sign-in or device-authentication attempts meets a limit of its own and cannot use up
 * the budget of signed-in users and devices. Route settings name route keys, which API Gateway checks exist: the stage
 * is made after the routes.
 */
export class ApiStage extends Construct {
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: ApiStageProps) {
    super(scope, id);
    const { config } = props;
    this.stage = new HttpStage(this, 'Default', {
      httpApi: props.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: config.apiThrottle,
      domainMapping: props.domainName === undefined ? undefined : { domainName: props.domainName },
      accessLogSettings: {
        destination: new LogGroupLogDestination(props.accessLogs),
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
    const routeSettings = Object.fromEntries(
      publicEndpointsOf(props.endpoints).map((endpoint) => [
        `${endpoint.method} ${endpoint.fullPath}`,
        { ThrottlingRateLimit: config.publicRouteThrottle.rateLimit, ThrottlingBurstLimit: config.publicRouteThrottle.burstLimit },
      ]),
    );
    (this.stage.node.defaultChild as CfnStage).addPropertyOverride('RouteSettings', routeSettings);
  }
}
