import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/**
 * The frame every page sits in: a skip link, the banner, the main landmark and the footer.
 * The portal issue replaces the inside with Mantine's AppShell; the landmarks stay.
 */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <header className="app-header">
        <Link to="/" className="brand" aria-label="Verity home">
          Verity
        </Link>
        <nav aria-label="Main">
          <Link to="/sign-in" className="nav-link" activeProps={{ 'aria-current': 'page' }}>
            Sign in
          </Link>
        </nav>
      </header>
      <main id="main-content" className="app-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="app-footer">
        <p>Verity · compliance recording for managed mobile devices</p>
      </footer>
    </div>
  );
}
