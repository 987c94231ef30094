import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { translationsQueryOptions } from '../features/translations/api/get-translations';
import { orgSettingsRoute } from './org-settings';

/** `/o/$organizationId/settings/translations`: translation settings (admins change them). */
export const translationsRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'translations',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(translationsQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./translations.lazy'), 'TranslationsPage'),
});
