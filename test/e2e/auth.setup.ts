import { ACCOUNTS, authState, expect, signIn, storageStateOf, test, type AccountName } from './support/fixtures.ts';

/**
 * The sign-in test, once per account per run (each run starts from a fresh stack): /sign-in → organisation → the
 * local provider's real form → back to /sign-in?code → (tenants, first time) /terms, accept → home. The signed-in
 * storage state is saved for the specs.
 */
for (const name of Object.keys(ACCOUNTS) as AccountName[]) {
  const account = ACCOUNTS[name];
  test(`sign in as ${account.email}`, async ({ page }) => {
    await signIn(page, name);
    if (account.tenant) {
      // First sign-in: the terms guard sends the user to accept the current terms.
      await expect(page).toHaveURL(/\/terms$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeVisible();
      await page.getByRole('button', { name: 'I accept these terms' }).click();
    }
    await expect(page).toHaveURL(new RegExp(`${account.home}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(account.tenant ? 'Dashboard' : 'Staff console');

    const state = await authState(page);
    expect(Object.keys(state).sort()).toEqual(['client', 'expiresAt', 'idToken', 'refreshToken', 'user']);
    expect(state.client).toBe(account.organisation);
    await page.context().storageState({ path: storageStateOf(name) });
  });
}
