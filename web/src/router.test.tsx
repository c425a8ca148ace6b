import { MantineProvider } from '@mantine/core';
import { QueryClient } from '@tanstack/react-query';
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
import { AppProviders } from './app/providers.tsx';
import { ErrorPage, errorTitle, NotFoundPage } from './components/errors/error-pages.tsx';
import { ApiError } from './lib/api-error.ts';
import { createAppRouter, ROUTER_DEFAULTS } from './router.tsx';
import { Route as RootRoute } from './routes/__root.tsx';
import { SignInSearch } from './routes/_empty/sign-in.tsx';
import { testSession } from './testing/test-session.ts';

/** Renders the whole app at `path` to HTML: enough to prove each shell page renders, without a DOM. */
async function renderAt(path: string, storedAuth?: object): Promise<string> {
  return (await loadAt(path, storedAuth)).html;
}

/** Loads the app at `path` with a stored session; the HTML and where the guards sent the visitor. */
async function loadAt(path: string, storedAuth?: object) {
  const queryClient = new QueryClient();
  const session = testSession(storedAuth);
  const router = createAppRouter({ queryClient, session }, createMemoryHistory({ initialEntries: [path] }));
  await router.load();
  const html = renderToString(
    <AppProviders queryClient={queryClient} session={session}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { html };
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
  it('renders the landing page inside the landmarks, with a sign-in link and the legal links', async () => {
    const html = await renderAt('/');
    expect(html).toMatch(/<header[^>]*>/);
    expect(html).toMatch(/<main[^>]*id="main-content"/);
    expect(html).toMatch(/<footer/);
    expect(text(html)).toContain('Compliance recording you can prove');
    expect(html).toMatch(/<a[^>]*href="\/sign-in"[^>]*>.*Sign in/);
    for (const page of ['/cookies', '/privacy', '/terms']) expect(html).toContain(`href="${page}"`);
    expect(html).toContain('href="#main-content"');
  });

  it('renders the sign-in form, and the exchange in progress when a code comes back', async () => {
    expect(text(await renderAt('/sign-in'))).toContain('Organisation');
    expect(text(await renderAt('/sign-in?code=abc&state=s'))).toContain('Signing you in');
  });

  it('renders the public pages', async () => {
    expect(text(await renderAt('/cookies'))).toContain('verity-locale');
    expect(text(await renderAt('/privacy'))).toContain('Privacy');
    expect(text(await renderAt('/terms'))).toContain('Terms of use');
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

  it('keeps only a redirect inside the portal', () => {
    expect(SignInSearch.parse({ redirect: '/dashboard/devices?x=1' })).toEqual({ redirect: '/dashboard/devices?x=1' });
    for (const redirect of ['//evil.example.com', 'https://evil.example.com', '/\\evil', 'javascript:alert(1)']) {
      expect(SignInSearch.parse({ redirect })).toEqual({});
    }
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
    return renderToString(
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>,
    );
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
