import { Link, notFound } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';
import { isApiError } from '../lib/api-client';

/**
 * A 404 of the API while loading a route becomes the route's "not found" (its notFoundComponent), a state the
 * router expects, instead of an error it reports. Other failures stay errors.
 */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (isApiError(error, 404)) throw notFound();
    throw error;
  }
}

/** An address no screen answers, outside the app's frame (signed out). */
export function NotFound() {
  return (
    <main id="main" className="main main-plain">
      <NotFoundState />
    </main>
  );
}

/** "This page does not exist", inside whatever frame the address falls in. */
export function NotFoundState() {
  return (
    <>
      <DocumentTitle>Not found</DocumentTitle>
      <EmptyState
        title="This page does not exist"
        action={
          <Link to="/" className={buttonClass('primary')}>
            Go to your organizations
          </Link>
        }
      >
        The address may be mistyped, or what it pointed to was deleted.
      </EmptyState>
    </>
  );
}
