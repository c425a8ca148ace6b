/**
 * The commands area's public module: what other areas use of it, and the only module of lambdas/commands they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { listCommands, listDeviceCommands, pollCommands, reportCommand, sendCommand } from './commands.ts';
