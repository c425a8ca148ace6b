import { isNotFound, Link, useLocation, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { statusOf } from '../../lib/api-error.ts';
import { reloadOnChunkError } from '../../lib/chunk-reload.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The error page's heading for a status (spec point 2): 404 is "Page Not Found", anything else a server error. */
export function errorTitle(status: number): string {
  return status === 404 ? 'Page Not Found' : 'Internal Server Error';
}

/** Unknown route (spec point 8): "Page not found: {path}", status 404. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  useDocumentTitle('Page not found');
  return (
    <section className="status-page" aria-labelledby="status-heading">
      <p className="status-code">404</p>
      <h1 id="status-heading">Page not found: {pathname}</h1>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}

/** The generic error page: status title plus the error's own message. */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const status = isNotFound(error) ? 404 : (statusOf(error) ?? 500);
  const title = errorTitle(status);
  useDocumentTitle(title);
  // A stale chunk after a deployment: reload once (guarded) instead of showing an error.
  useEffect(() => {
    reloadOnChunkError(error);
  }, [error]);
  const message = error instanceof Error ? error.message : '';
  return (
    <section className="status-page" role="alert" aria-labelledby="status-heading">
      <p className="status-code">{status}</p>
      <h1 id="status-heading">{title}</h1>
      {message && <pre className="status-message">{message}</pre>}
      <p className="actions">
        <button type="button" className="button" onClick={reset}>
          Try again
        </button>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
