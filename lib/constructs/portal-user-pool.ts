import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

/** The custom attribute naming a tenant user's client; the id token carries it as `custom:client`. */
export const CLIENT_ATTRIBUTE = 'client';

export interface PortalUserPoolProps {
  /** Shown in the console and in the hosted UI; e.g. "Verity dev tenants". */
  readonly title: string;
  /** Hosted UI domain prefix (`<prefix>.auth.<region>.amazoncognito.com`). */
  readonly domainPrefix: string;
  readonly mfa: 'required' | 'optional';
  /** Origins of the portal (`https://host`); the OAuth callback and sign-out page are `<origin>/sign-in`. */
  readonly portalOrigins: readonly string[];
  /** Adds the `custom:client` attribute (tenant users). Readable by the portal, never writable by the user. */
  readonly withClientAttribute: boolean;
}

/**
 * A Cognito user pool for portal users, with its hosted UI and one public SPA app client (code flow, no
 * secret). Administrators create users: there is no self sign-up. Roles come from Cognito groups, which
 * Cognito puts in the id token as `cognito:groups` without further setup.
 */
export class PortalUserPool extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;

  constructor(scope: Construct, id: string, props: PortalUserPoolProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: props.title.toLowerCase().replaceAll(' ', '-'),
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: props.withClientAttribute ? { [CLIENT_ATTRIBUTE]: new StringAttribute({ minLen: 1, maxLen: 64, mutable: true }) } : undefined,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // TOTP only: SMS codes are open to SIM swap and would need an SNS role and spend limits.
      mfa: props.mfa === 'required' ? Mfa.REQUIRED : Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Plus: compromised-credential checks and adaptive authentication for people who can read recordings.
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.domain = this.userPool.addDomain('HostedUi', { cognitoDomain: { domainPrefix: props.domainPrefix } });

    const signInPages = props.portalOrigins.map((origin) => `${origin}/sign-in`);
    const readable = new ClientAttributes()
      .withStandardAttributes({ email: true, emailVerified: true, givenName: true, familyName: true })
      .withCustomAttributes(...(props.withClientAttribute ? [CLIENT_ATTRIBUTE] : []));
    // The tenant attribute is deliberately absent: a user who could write it could move into another tenant.
    const writable = new ClientAttributes().withStandardAttributes({ givenName: true, familyName: true });

    this.client = this.userPool.addClient('PortalClient', {
      userPoolClientName: 'portal',
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: signInPages,
        logoutUrls: signInPages,
      },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      // A working day: the portal refreshes silently; a stolen refresh token expires by the next morning.
      refreshTokenValidity: Duration.hours(12),
      readAttributes: readable,
      writeAttributes: writable,
    });
  }

  /** The OIDC issuer of this pool's tokens (`https://cognito-idp.<region>.amazonaws.com/<pool id>`). */
  get issuer(): string {
    return this.userPool.userPoolProviderUrl;
  }
}
