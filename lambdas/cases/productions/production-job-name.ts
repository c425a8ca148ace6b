/**
 * The production job's name, on its own so the cases API (which only starts the job) bundles none of the job's
 * reading, packaging and delivery code.
 */
export const PRODUCTION_JOB = 'production';
