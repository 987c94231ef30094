import { createFileRoute } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-shell';
import { NotFoundState } from './-not-found';

/** Any other address of a signed-in user: "not found" inside the app's frame, with its menus. */
export const Route = createFileRoute('/_app/$')({
  component: AppNotFound,
});

function AppNotFound() {
  return (
    <PlainLayout>
      <NotFoundState />
    </PlainLayout>
  );
}
