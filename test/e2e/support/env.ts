/** The environment variable through which the global setup hands the stack's URL to the test workers. */
export const BASE_URL_ENV = 'VERITY_E2E_BASE_URL';
/**
 * The stack's own environment (table, DynamoDB and S3 endpoints, data directory) as JSON, for a spec that runs a job
 * against the same stack in a process of its own (the retention job, say), as the scheduler would.
 */
export const STACK_ENV_ENV = 'VERITY_E2E_STACK_ENV';

/**
 * Where a run keeps its artefacts (screenshots, signed-in states, the stack's log) and where it builds the portal.
 * Defaults: `test-results/` and `web/dist`. Setting both lets two runs share one work tree without overwriting each
 * other's sign-ins or serving each other's half-written build.
 */
export const RESULTS_DIR_ENV = 'E2E_RESULTS_DIR';
export const WEB_DIST_ENV = 'E2E_WEB_DIST';

/** The local SFTP stand-in (host, port, account, host key fingerprint) as JSON, for walks that deliver a transfer. */
export const SFTP_ENV = 'VERITY_E2E_SFTP';
