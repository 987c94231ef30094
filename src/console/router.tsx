import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { createRouter, Link, useParams, useRouter } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { buttonClass } from './components/ui/button';
import { ErrorState, Loading } from './components/ui/states';
import { isApiError, isSsoRequired } from './lib/api-client';
import { NotFound } from './routes/-not-found';
import { SsoRequiredState } from './routes/-sso-required';
import { routeTree } from './routeTree.gen';

/**
 * /login, /signup                        (`/login?method=sso`: single sign-on, found from the e-mail address)
 * /join/$organizationId/$inviteId       following an invite link: sign up (or in), then join
 * /                                     → the first organization, or "create your first organization"
 * /account                              account settings: pending invitations, linked identity providers
 *                                       (`?linked=<providerId>`: the server sends the browser back here once linked)
 * /o/$organizationId                    organization home: the tree of collections and spaces
 * /o/$organizationId/trash              deleted spaces, restorable
 * /o/$organizationId/settings/general   name, logo, default role, invite links on or off; deleting the organization
 * /o/$organizationId/settings/members   members (`?search=&role=&sort=lastSeenAt&order=asc&member=<userId>`)
 * /o/$organizationId/settings/invites   invite links
 * /o/$organizationId/settings/domains   e-mail domains: add, verify (DNS TXT record, or the instance owner), remove
 * /o/$organizationId/settings/sso       SAML providers and the endpoints to give the identity provider; enforced SSO
 * /o/$organizationId/settings/translations  translation settings
 * /o/$organizationId/settings/teams     teams (`?title=`); …/teams/$teamId one team and its members
 * /o/$organizationId/collections/$id    one collection
 * /o/$organizationId/spaces/$id         one space: its first page
 *   …/pages/$pageId                     a page of the space, rendered
 *   …/change-requests                   change requests by status (`?status=draft|merged|archived`)
 *   …/change-requests/$number           review: changes and diffs (`?view=inline`), reviews, merge
 *   …/change-requests/$number/pages     the editor (opens the first page)
 *   …/change-requests/$number/pages/$pageId   the editor on one page
 *   …/change-requests/$number/conflicts the conflicts of an update from the space
 *   …/revisions/$revisionId[/pages/$pageId]  a past revision, read-only
 *   …/links                             the links report: broken links first, each fixable in a change request
 *   …/settings                          the space's settings
 * /o/$organizationId/openapi            OpenAPI specifications: add (URL, file, text), processing followed live
 *   …/$specSlug                         one spec (`?tab=reference|compare&version=&from=&to=`): source, versions,
 *                                       a version's reference, two versions compared with breaking changes
 * /o/$organizationId/integrations       integrations directory (`?search=&category=&target=`), installed ones first
 *   …/$integrationName                  one integration: install, configure (form from its schema), its spaces
 *                                       and sites, uninstall
 * /o/$organizationId/sites              docs sites (`?title=&published=true|false&space=`)
 * /o/$organizationId/sites/$siteId      one site: opens its structure
 *   …/structure                         sections, groups and site spaces: add, edit, reorder
 *   …/share-links                       share links of the site
 *   …/adaptive                          the adaptive schema and its template conditions
 *   …/settings                          the site's settings and visitor authentication
 * These URLs are the ones the server writes in `urls.app`.
 *
 * Each screen is one file, `routes/<route>.tsx`, named after its URL (TanStack Router's file-based routing: `.` for
 * `/`, `_app` the signed-in frame that adds nothing to the URL, `index` the bare address, `$` a parameter, a
 * trailing `_` a sibling route that is not nested in the one before it; files starting with `-` are helpers, not
 * routes). The Vite plugin writes the tree (`routeTree.gen.ts`) and splits each route: its URL, params and search,
 * beforeLoad and loader are part of the first download, so any address is matched and its data requested at once;
 * its component, error and not-found states are downloaded when first needed, while its loader fetches the data.
 * What the first download holds imports the contract's types (`import type`) and its constants
 * (`shared/contract/constants`) only: a value imported from a schema module brings zod and every schema (33 kB
 * compressed) with it. Route files read their params and search with `routes/-url.ts`.
 */
function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorReset = useQueryErrorResetBoundary();
  useEffect(() => queryErrorReset.reset(), [queryErrorReset]);
  const { organizationId } = useParams({ strict: false });
  // Anything in an organization that enforces SSO (a space, a site) is refused the same way as the organization.
  if (isSsoRequired(error) && organizationId) return <SsoRequiredState organizationId={organizationId} />;
  const final = isApiError(error, 404) || isApiError(error, 403);
  return (
    <ErrorState
      error={error}
      onRetry={
        final
          ? undefined
          : () => {
              reset();
              void router.invalidate();
            }
      }
      action={
        final && (
          <Link to="/" className={buttonClass('secondary')}>
            Go to your organizations
          </Link>
        )
      }
    />
  );
}

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    // The query cache decides what is fresh; preloading on hover or focus only warms it.
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    defaultPendingMs: 250,
    defaultPendingComponent: () => <Loading />,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
