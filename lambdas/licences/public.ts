/**
 * The licences area's public module: what other areas use of it, and the only module of lambdas/licences they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { LicenceLimitError, licenceLine, raiseLicenceAlerts, servicesAtLimit } from './licence-check.ts';
export { increasedServices, licenceUseChanges, licenceUseOperations, usedAttribute } from './licence-usage.ts';
