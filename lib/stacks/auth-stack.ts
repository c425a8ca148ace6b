import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnUserPoolGroup } from 'aws-cdk-lib/aws-cognito';
import { NagSuppressions } from 'cdk-nag';
import { STAFF_ROLES } from '#shared/permissions/staff-roles.ts';
import type { Construct } from 'constructs';
import { STACK_OUTPUTS } from '../config/stack-outputs.ts';
import type { StageConfig } from '../config/stage-config.ts';
import { PortalUserPool } from '../constructs/portal-user-pool.ts';

export interface AuthStackProps extends StackProps {
  readonly config: StageConfig;
  /** `https://<portal domain>`; the app clients' callback is `<portalUrl>/sign-in`. */
  readonly portalUrl: string;
}

/**
 * Portal identities: one user pool for the provider's staff (the internal console, support mode) and one for
 * tenant users. Separate pools keep a tenant administrator's user management away from staff accounts.
 */
export class AuthStack extends Stack {
  readonly staff: PortalUserPool;
  readonly tenants: PortalUserPool;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);
    const { config } = props;
    const portalOrigins = [props.portalUrl, ...config.extraPortalOrigins];

    this.staff = new PortalUserPool(this, 'Staff', {
      title: `Verity ${config.stage} staff`,
      domainPrefix: `${config.authDomainPrefix}-staff`,
      // Staff can request access to any tenant: always two factors.
      mfa: 'required',
      portalOrigins,
      withClientAttribute: false,
    });
    // The staff roles are the staff pool's groups: a staff member's groups reach the backend as `cognito:groups`.
    for (const role of Object.values(STAFF_ROLES)) {
      new CfnUserPoolGroup(this, `StaffGroup-${role.role_reference}`, {
        userPoolId: this.staff.userPool.userPoolId,
        groupName: role.role_reference,
        ...(role.description === undefined ? {} : { description: role.description }),
      });
    }
    this.tenants = new PortalUserPool(this, 'Tenants', {
      title: `Verity ${config.stage} tenants`,
      domainPrefix: `${config.authDomainPrefix}-tenants`,
      mfa: config.tenantMfa,
      portalOrigins,
      withClientAttribute: true,
    });
    if (config.tenantMfa === 'optional') {
      NagSuppressions.addResourceSuppressions(this.tenants.userPool, [
        {
          id: 'AwsSolutions-COG2',
          reason: 'This stage config sets tenantMfa=optional (default required): its tenants enforce MFA in their own identity provider.',
        },
      ]);
    }

    new CfnOutput(this, 'StaffSignInBase', { value: this.staff.domain.baseUrl() });
    new CfnOutput(this, 'TenantSignInBase', { value: this.tenants.domain.baseUrl() });
    // Read by the provisioning commands (npm run tenant / staff), which create users in these pools.
    new CfnOutput(this, STACK_OUTPUTS.staffUserPoolId.output, { value: this.staff.userPool.userPoolId });
    new CfnOutput(this, STACK_OUTPUTS.tenantUserPoolId.output, { value: this.tenants.userPool.userPoolId });
  }
}
