import type { DevicePrincipal } from '#core/auth/principal.ts';
import { pollCommands, reportCommand } from '../commands/commands.ts';
import { UnauthorizedError } from '#core/errors.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';

const [poll, report] = [deviceApiEndpoints[2], deviceApiEndpoints[3]];
if (poll.id !== 'device.commands.poll' || report.id !== 'device.commands.report') throw new Error('device-api contract order changed: commands');

/** The verified device (the pipeline authenticated it; this narrows the type). Tenant and device come from it only. */
function deviceOf(principal: unknown): DevicePrincipal {
  const device = principal as DevicePrincipal | undefined;
  if (device?.kind !== 'device') throw new UnauthorizedError('Device token required');
  return device;
}

/** The device side of commands (lambdas/commands): its own pending commands, and its reports on them. */
export const deviceCommandRoutes: Routes = {
  [poll.id]: implement(poll, (input, deps) => {
    const device = deviceOf(input.principal);
    return pollCommands(deps, device.client, device.deviceReference);
  }),
  [report.id]: implement(report, (input, deps) => {
    const device = deviceOf(input.principal);
    return reportCommand(deps, device.client, device.deviceReference, input.params.command_reference, input.body);
  }),
};
