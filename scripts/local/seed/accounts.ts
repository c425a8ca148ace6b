import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * Demo accounts shared by the local OIDC provider (sign-in) and the seed (portal user items), so the two cannot disagree.
 * Passwords are kept only as scrypt hashes in memory: the plain demo password appears here once, as documentation.
 */
export const DEMO_PASSWORD = 'Verity-demo-1';

/** The tenants the seed creates. `admin` is not a tenant: it is the provider staff's client name (spec point 4). */
export const DEMO_TENANTS = ['demo', 'acme'] as const;

/** The staff pseudo-client: staff tokens carry `custom:client: admin`. */
export const STAFF_CLIENT = 'admin';

export interface DemoAccount {
  /** Stable subject (`sub`), also the portal user reference. */
  sub: string;
  email: string;
  /** Tenant name, or `admin` for provider staff. */
  client: string;
  /** Role references, carried as `cognito:groups`. */
  groups: string[];
  firstName: string;
  surname: string;
}

interface StoredAccount extends DemoAccount {
  salt: Buffer;
  hash: Buffer;
}

const ACCOUNTS: readonly DemoAccount[] = [
  { sub: 'demo-admin', email: 'admin@demo.test', client: 'demo', groups: ['admin'], firstName: 'Dana', surname: 'Admin' },
  // A second admin, so a change that shortens a record's life (four eyes) can be requested by one and approved by another.
  { sub: 'demo-approver', email: 'approver@demo.test', client: 'demo', groups: ['admin'], firstName: 'Jordan', surname: 'Approver' },
  { sub: 'demo-reviewer', email: 'reviewer@demo.test', client: 'demo', groups: ['reviewer'], firstName: 'Robin', surname: 'Reviewer' },
  { sub: 'acme-admin', email: 'admin@acme.test', client: 'acme', groups: ['admin'], firstName: 'Alex', surname: 'Acme' },
  { sub: 'verity-staff', email: 'staff@verity.test', client: STAFF_CLIENT, groups: ['staff'], firstName: 'Sam', surname: 'Staff' },
  // Read-only staff (the `support` staff role): reads the internal console, refused every internal write.
  { sub: 'verity-support', email: 'support@verity.test', client: STAFF_CLIENT, groups: ['support'], firstName: 'Sky', surname: 'Support' },
];

function hashPassword(password: string, salt: Buffer): Buffer {
  return scryptSync(password, salt, 32);
}

// Hashed once per process; scrypt's cost is deliberate, so sign-in stays realistic without storing plain text.
let stored: StoredAccount[] | undefined;
function storedAccounts(): StoredAccount[] {
  stored ??= ACCOUNTS.map((account) => {
    const salt = randomBytes(16);
    return { ...account, salt, hash: hashPassword(DEMO_PASSWORD, salt) };
  });
  return stored;
}

/** Every demo account (without secrets). */
export function demoAccounts(): DemoAccount[] {
  return ACCOUNTS.map((account) => ({ ...account, groups: [...account.groups] }));
}

/** Finds an account by its subject. */
export function findAccountBySub(sub: string): DemoAccount | undefined {
  return demoAccounts().find((account) => account.sub === sub);
}

/**
 * Checks an email and password; answers the account or undefined. Emails compare case-insensitively
 * (as Cognito does); passwords compare in constant time.
 */
export function verifyCredentials(email: string, password: string): DemoAccount | undefined {
  const wanted = email.trim().toLowerCase();
  const account = storedAccounts().find((candidate) => candidate.email === wanted);
  // Hash even when the account is unknown so timing does not reveal which emails exist.
  const salt = account?.salt ?? randomBytes(16);
  const hash = hashPassword(password, salt);
  if (!account || !timingSafeEqual(hash, account.hash)) return undefined;
  const { salt: _salt, hash: _hash, ...rest } = account;
  return { ...rest, groups: [...rest.groups] };
}
