import { deviceOf } from '#core/auth/actor.ts';
import { pollCommands, reportCommand } from '../commands/public.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';

const poll = endpointOf(deviceApiEndpoints, 'device.commands.poll');
const report = endpointOf(deviceApiEndpoints, 'device.commands.report');

/** The device side of commands (lambdas/commands): its own pending commands, and its reports on them. */
export const deviceCommandRoutes: Routes = {
  [poll.id]: implement(poll, (input, deps) => pollCommands(deps, deviceOf(input.principal))),
  [report.id]: implement(report, (input, deps) => reportCommand(deps, deviceOf(input.principal), input.params.command_reference, input.body)),
};
