import { createFileRoute, Link } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { useDocumentTitle } from '../lib/use-document-title.ts';

/**
 * One search value from the identity provider's redirect. The router parses search as JSON, so an
 * all-digit value arrives as a number; anything else unexpected is dropped rather than failing the page.
 */
const SearchText = z.catch(
  z.optional(
    z.pipe(
      z.transform((value: unknown) => (typeof value === 'number' ? String(value) : value)),
      z.string().check(z.maxLength(4096)),
    ),
  ),
  undefined,
);

/** `/sign-in?code=…&state=…` is where the OAuth2 code flow lands (DESIGN.md §6). */
export const SignInSearch = z.object({
  code: SearchText,
  state: SearchText,
  error: SearchText,
});
export type SignInSearch = z.infer<typeof SignInSearch>;

export const Route = createFileRoute('/sign-in')({
  validateSearch: SignInSearch,
  component: SignInPage,
});

function SignInPage() {
  useDocumentTitle('Sign in');
  const { code, error } = Route.useSearch();
  return (
    <section className="sign-in" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in</h1>
      <p>
        Signing in to Verity is not available in this version of the portal. It arrives with the next portal update,
        through your organisation&rsquo;s identity provider.
      </p>
      {(code !== undefined || error !== undefined) && (
        <p role="status">
          A response from the identity provider was received, but this version of the portal cannot complete the
          sign-in yet.
        </p>
      )}
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}
