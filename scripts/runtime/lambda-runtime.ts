/**
 * The Node.js major the Lambdas run on (`nodejs22.x` in lib/constructs/verity-function.ts). Local runs, tests and CI
 * use the same major, from the npm package `node` (a devDependency that ships the binary): npm puts
 * `node_modules/.bin/node` first on PATH for every `npm run`/`npm test`/`npm start`, so the machine's own Node only
 * installs packages.
 */
export const LAMBDA_NODE_MAJOR = 22;

/** The major of the Node.js running this process. */
export function runningNodeMajor(): number {
  return Number(process.versions.node.split('.')[0]);
}

/** A line for start-up output: which Node runs, and a warning when it is not the Lambdas' major. */
export function describeRuntime(): string {
  const major = runningNodeMajor();
  if (major === LAMBDA_NODE_MAJOR) return `Node ${process.version} (the Lambdas' runtime major)`;
  return `Warning: Node ${process.version} runs this, but the Lambdas run Node ${LAMBDA_NODE_MAJOR}: start through npm (npm start, npm test) so the project's own Node ${LAMBDA_NODE_MAJOR} is used`;
}
