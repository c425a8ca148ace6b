/** The environment variable through which the global setup hands the stack's URL to the test workers. */
export const BASE_URL_ENV = 'VERITY_E2E_BASE_URL';
