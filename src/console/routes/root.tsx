import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

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
