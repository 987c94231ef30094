import { createFileRoute } from '@tanstack/react-router';
import { NotFoundState } from './-not-found';

/** An address under the organization that no screen answers: "not found" beside the organization's sidebar. */
export const Route = createFileRoute('/_app/o/$organizationId/$')({
  component: NotFoundState,
});
