import { CfnElement, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * A cdk-nag `appliesTo` regex for `Resource::<that resource's ARN><suffix>`, whatever form the reference takes
 * in the policy (`<Id.Arn>` in the same stack, an import or stack output naming the logical id across stacks).
 */
export function resourcePattern(resource: IConstruct, suffix: string): string {
  const child = resource.node.defaultChild;
  const logicalId = CfnElement.isCfnElement(child) ? Stack.of(child).getLogicalId(child) : '';
  if (!/^[A-Za-z0-9]*$/.test(logicalId)) throw new Error(`unexpected logical id "${logicalId}"`);
  return `/^Resource::.*${logicalId}.*${suffix}$/`;
}
