import { createFileRoute, Link } from '@tanstack/react-router';
import { useDocumentTitle } from '../lib/use-document-title.ts';

export const Route = createFileRoute('/')({
  component: LandingPage,
});

function LandingPage() {
  useDocumentTitle();
  return (
    <section className="landing" aria-labelledby="landing-heading">
      <h1 id="landing-heading">Verity</h1>
      <p className="lead">
        Verity records the calls, messages, media and locations of managed mobile devices, and keeps them safe and
        searchable for organisations that must prove compliance.
      </p>
      <p>
        <Link to="/sign-in" className="button">
          Sign in
        </Link>
      </p>
    </section>
  );
}
