import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/states';

/** When the page of the URL is not in the space (any more). */
export function PageNotFound({ organizationId, spaceId }: { organizationId: string; spaceId: string }) {
  return (
    <EmptyState
      title="Page not found"
      action={
        <Link to="/o/$organizationId/spaces/$spaceId" params={{ organizationId, spaceId }} className={buttonClass()}>
          Go to the first page
        </Link>
      }
    >
      It may have been deleted or moved to another space.
    </EmptyState>
  );
}
