import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  notFound,
  RouterProvider,
} from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorPage, errorTitle, NotFoundPage } from './components/errors/error-pages.tsx';
import { ApiError } from './lib/api-error.ts';
import { createAppRouter, ROUTER_DEFAULTS } from './router.tsx';
import { Route as RootRoute } from './routes/__root.tsx';
import { SignInSearch } from './routes/sign-in.tsx';

/** Renders the whole app at `path` to HTML: enough to prove each shell page renders, without a DOM. */
async function renderAt(path: string): Promise<string> {
  const queryClient = new QueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  await router.load();
  return renderToString(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** Text content of the HTML, tags dropped and React's entity escaping undone, for readable assertions. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the shell', () => {
  it('renders the landing page inside the landmarks, with a sign-in link', async () => {
    const html = await renderAt('/');
    expect(html).toMatch(/<header[^>]*>/);
    expect(html).toMatch(/<main id="main-content"/);
    expect(html).toMatch(/<footer/);
    expect(html).toMatch(/<h1 id="landing-heading">Verity<\/h1>/);
    expect(html).toMatch(/<a[^>]*href="\/sign-in"[^>]*>Sign in<\/a>/);
    expect(html).toContain('href="#main-content"');
  });

  it('renders the sign-in placeholder, and notes a response from the identity provider', async () => {
    expect(text(await renderAt('/sign-in'))).toContain('Signing in to Verity is not available');
    expect(text(await renderAt('/sign-in?code=abc'))).toContain('A response from the identity provider was received');
  });

  it('answers an unknown path with "Page not found: {path}" and 404', async () => {
    const page = text(await renderAt('/no/such/page'));
    expect(page).toContain('Page not found: /no/such/page');
    expect(page).toContain('404');
  });

  it('escapes a hostile path instead of rendering it as markup', async () => {
    // The router canonicalises the path to its encoded form first; render that form.
    const html = await renderAt(`/${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect(html).not.toContain('<img');
    expect(text(html)).toMatch(/Page not found: \/.*img/);
  });
});

describe('the sign-in search', () => {
  it('keeps string values, turns an all-digit code (parsed as a number) back into text, drops junk', () => {
    expect(SignInSearch.parse({ code: 'abc', state: 's' })).toEqual({ code: 'abc', state: 's' });
    expect(SignInSearch.parse({ code: 12345 })).toEqual({ code: '12345' });
    expect(SignInSearch.parse({ code: { $gt: '' }, state: ['a'], error: 'x'.repeat(5000) })).toEqual({});
  });
});

describe('the error page', () => {
  it('is wired to the root route, with the not-found page', () => {
    expect(RootRoute.options.errorComponent).toBe(ErrorPage);
    expect(RootRoute.options.notFoundComponent).toBe(NotFoundPage);
  });

  it('titles 404 Page Not Found and anything else Internal Server Error', () => {
    expect(errorTitle(404)).toBe('Page Not Found');
    expect(errorTitle(500)).toBe('Internal Server Error');
    expect(errorTitle(403)).toBe('Internal Server Error');
  });

  /** A one-route app with the app's router defaults, whose page loader throws `error`; the raw HTML. */
  async function renderErrorHtml(error: unknown): Promise<string> {
    const root = createRootRoute();
    const page = createRoute({
      getParentRoute: () => root,
      path: '/',
      loader: () => {
        throw error;
      },
    });
    const router = createRouter({
      ...ROUTER_DEFAULTS,
      routeTree: root.addChildren([page]),
      history: createMemoryHistory({ initialEntries: ['/'] }),
    });
    await router.load();
    return renderToString(<RouterProvider router={router} />);
  }
  const renderError = async (error: unknown) => text(await renderErrorHtml(error));

  it('shows the status and the error\u2019s own message, for an error in any route', async () => {
    expect(await renderError(new ApiError(404, 404, ['Data not found'], 'x'))).toMatch(
      /404 Page Not Found Data not found/,
    );
    expect(await renderError(new ApiError(403, 403, ['devices:List is not allowed'], 'x'))).toMatch(
      /403 Internal Server Error devices:List is not allowed/,
    );
    expect(await renderError(new Error('boom'))).toMatch(/500 Internal Server Error boom/);
    expect(await renderError(notFound())).toMatch(/Page not found: \//);
  });

  it('escapes a hostile message', async () => {
    const html = await renderErrorHtml(new Error('<script>alert(1)</script>'));
    expect(html).toContain('Internal Server Error');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
