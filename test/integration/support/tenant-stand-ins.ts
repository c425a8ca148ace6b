/**
 * The loopback address the integration tests' own tenant stand-ins (a client app's key set server) listen on. The
 * egress policy refuses loopback; the test stack excepts this one address on any port (`127.0.0.9:*` in
 * EGRESS_ALLOW, test/integration/global-setup.ts) and nothing else of loopback but its own stand-ins, so tests of the
 * policy itself still see 127.0.0.1 and ::1 refused.
 */
export const TENANT_STAND_IN_HOST = '127.0.0.9';
