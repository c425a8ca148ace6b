import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setLocalJobHandler } from '#core/adapters/local/local-job-runner.ts';
import { getDependencies } from '#core/composition.ts';
import { resetConfig } from '#core/config.ts';
import { createLocalJobsHandler, LOCAL_JOBS } from './local/jobs.ts';
import { findRunningStack } from './local/running-stack.ts';
import { REPO_ROOT } from './local/stack.ts';

const USAGE = `npm run job -- <name> [--client <client>] [--input '<json object>'] [--data-dir <folder>]

Runs one job of lambdas/jobs/jobs.ts or lambdas/transfer-jobs/transfer-jobs.ts now, against the local stack that
npm start is running (found through <data-dir>/stack.json, default .data/), with the input a schedule would give it
(--client adds "client" to it).
Prints the job's result as JSON; exits 1 when the job fails, 2 on a usage error or when the stack is not running.

Jobs: ${Object.keys(LOCAL_JOBS).join(', ')}`;

function usageError(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        client: { type: 'string' },
        input: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
})();

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [name, ...extra] = positionals;
if (name === undefined) usageError('Name the job to run.');
if (extra.length > 0) usageError(`One job at a time; also given: ${extra.join(' ')}`);
if (!Object.hasOwn(LOCAL_JOBS, name)) usageError(`No job named ${JSON.stringify(name)}.`);

let input: Record<string, unknown> = {};
if (values.input !== undefined) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(values.input);
  } catch (error) {
    usageError(`--input is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) usageError('--input must be a JSON object');
  input = parsed as Record<string, unknown>;
}
if (values.client !== undefined) input = { ...input, client: values.client };

const dataDir = values['data-dir'] ?? join(REPO_ROOT, '.data');
const found = await findRunningStack(dataDir);
if ('problem' in found) {
  console.error(found.problem);
  process.exit(2);
}

// The handlers' environment, as the running stack set it for its own; quiet unless something goes wrong.
Object.assign(process.env, { ...found.stack.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
resetConfig();

// The job runs through the jobs handler with the event a schedule sends, as the jobs function would receive it.
// Jobs it starts on its own (JobRunner) run here too, and are waited for before the command exits.
const handler = createLocalJobsHandler(getDependencies);
const started: Array<Promise<unknown>> = [];
setLocalJobHandler((job, jobInput) => {
  const run = handler({ job, input: jobInput });
  started.push(run.catch(() => undefined));
  return run;
});

console.error(`Running ${name} against ${found.stack.apiUrl} with input ${JSON.stringify(input)}`);
const began = Date.now();
try {
  const result = await handler({ job: name, input });
  // The JobRunner starts a job on the next turn of the event loop, and a follow-up may start more: wait for all.
  for (let waited = 0; ; ) {
    await new Promise((resolve) => setImmediate(resolve));
    if (waited === started.length) break;
    const batch = started.slice(waited);
    waited = started.length;
    await Promise.all(batch);
  }
  console.log(JSON.stringify({ job: name, ok: true, seconds: (Date.now() - began) / 1000, result }, null, 2));
  process.exit(0);
} catch (error) {
  console.error(`${name} failed after ${(Date.now() - began) / 1000} s: ${error instanceof Error ? error.message : String(error)}`);
  console.log(JSON.stringify({ job: name, ok: false, error: error instanceof Error ? error.message : String(error) }, null, 2));
  process.exit(1);
}
