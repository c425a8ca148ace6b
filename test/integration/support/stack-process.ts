import { parseArgs } from 'node:util';
import { startLocalStack } from '../../../scripts/local/stack.ts';

/**
 * The local stack as a process of its own, for tests that kill it (`kill -9` of the whole stack) and start it again on
 * the same data folder: DynamoDB on disk, the SFTP stand-in on a fixed port and account (a transfer configuration
 * names them), nothing seeded but the demo tenants. Prints one line, `STACK <json>`, once the stack is up: its
 * address, its handlers' environment and the SFTP stand-in. The long-job settings (LONG_JOB_*, JOB_RESUMPTION_LIMIT)
 * come from this process's environment, as a deployed function's do.
 */
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'sftp-port': { type: 'string' },
    'sftp-password': { type: 'string' },
  },
});
if (values['data-dir'] === undefined || values['sftp-port'] === undefined || values['sftp-password'] === undefined) {
  console.error('usage: stack-process.ts --data-dir <folder> --sftp-port <n> --sftp-password <text>');
  process.exit(2);
}
const stack = await startLocalStack({
  dataDir: values['data-dir'],
  port: 0,
  quiet: true,
  sftp: { port: Number(values['sftp-port']), username: 'receiver', password: values['sftp-password'] },
});
console.log(`STACK ${JSON.stringify({ apiUrl: stack.apiUrl, env: stack.env, sftp: stack.sftp })}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stack.stop().then(() => process.exit(0));
  });
}
