import { createRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { z } from 'zod';
import { idSchema, listMembersQuerySchema, MEMBER_SORTS } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { useUser } from '../features/auth/api/get-user';
import { membersQueryOptions } from '../features/members/api/get-members';
import { Invitations } from '../features/members/components/invitations';
import { MemberDialog } from '../features/members/components/member-dialog';
import { MembersTable } from '../features/members/components/members-table';
import type { MembersListState } from '../features/members/components/members-table';
import { useOrganization } from '../features/organizations/api/get-organization';
import { orgSettingsRoute } from './org-settings';

/**
 * `?search=&role=&sort=lastSeenAt&order=asc&member=<userId>`: the list's search, filter and sort, and the member
 * whose details are open. Defaults (joined, newest first) leave the URL bare; anything invalid falls back to them.
 */
const membersSearchSchema = z.object({
  search: listMembersQuerySchema.shape.search.catch(undefined),
  role: listMembersQuerySchema.shape.role.catch(undefined),
  sort: z.enum(MEMBER_SORTS).exclude(['joinedAt']).optional().catch(undefined),
  order: z.enum(['asc']).optional().catch(undefined),
  member: idSchema.optional().catch(undefined),
});

export const membersRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'members',
  validateSearch: membersSearchSchema,
  loaderDeps: ({ search: { search, role, sort, order } }) => ({ search, role, sort, order }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureInfiniteQueryData(
      membersQueryOptions(params.organizationId, {
        search: deps.search,
        role: deps.role,
        sort: deps.sort ?? 'joinedAt',
        order: deps.order ?? 'desc',
      }),
    ),
  component: MembersPage,
});

function MembersPage() {
  const { organizationId } = membersRoute.useParams();
  const search = membersRoute.useSearch();
  const organization = useOrganization(organizationId);
  const user = useUser();
  const navigate = useNavigate({ from: membersRoute.fullPath });
  const onStateChange = useCallback(
    (patch: MembersListState) =>
      void navigate({
        search: (previous) => ({
          ...previous,
          ...patch,
          sort: 'sort' in patch ? (patch.sort === 'lastSeenAt' ? 'lastSeenAt' : undefined) : previous.sort,
          order: 'order' in patch ? (patch.order === 'asc' ? 'asc' : undefined) : previous.order,
        }),
        replace: true,
      }),
    [navigate],
  );
  return (
    <>
      <DocumentTitle>{`Members · ${organization.title}`}</DocumentTitle>
      {organization.permissions.admin && (
        <Invitations organizationId={organizationId} defaultRole={organization.defaultRole ?? 'read'} />
      )}
      <MembersTable
        organizationId={organizationId}
        state={search}
        onStateChange={onStateChange}
        onOpenMember={(userId) => void navigate({ search: (previous) => ({ ...previous, member: userId }) })}
        canManage={organization.permissions.admin}
        currentUserId={user.id}
      />
      {search.member && (
        <MemberDialog
          organizationId={organizationId}
          userId={search.member}
          onClose={() => void navigate({ search: (previous) => ({ ...previous, member: undefined }) })}
        />
      )}
    </>
  );
}
