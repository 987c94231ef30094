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

export function NotFound() {
  return (
    <main id="main" className="main main-plain">
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
    </main>
  );
}
