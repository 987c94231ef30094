import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { MEMBER_SEARCH_MAX, MEMBER_SORTS, ROLES } from '../../shared/contract/constants';
import type { ListMembersQuery } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { useUser } from '../features/auth/api/get-user';
import { membersQueryOptions } from '../features/members/api/get-members';
import { Invitations } from '../features/members/components/invitations';
import { MemberDialog } from '../features/members/components/member-dialog';
import { MembersTable } from '../features/members/components/members-table';
import type { MembersListState } from '../features/members/components/members-table';
import { useOrganization } from '../features/organizations/api/get-organization';
import { id, oneOf, searchParams, text } from './-url';

/**
 * `?search=&role=&sort=lastSeenAt&order=asc&member=<userId>`: the list's search, filter and sort, and the member
 * whose details are open. Defaults (joined, newest first) leave the URL bare; anything invalid falls back to them.
 */
const membersSearch = searchParams<{
  search: string;
  role: NonNullable<ListMembersQuery['role']>;
  sort: Exclude<ListMembersQuery['sort'], 'joinedAt'>;
  order: 'asc';
  member: string;
}>({
  search: text(MEMBER_SEARCH_MAX),
  role: oneOf([...ROLES, 'guest'] as const),
  sort: oneOf(MEMBER_SORTS.filter((sort) => sort !== 'joinedAt')),
  order: oneOf(['asc'] as const),
  member: id,
});

export const Route = createFileRoute('/_app/o/$organizationId/settings/members')({
  validateSearch: membersSearch,
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
  const { organizationId } = Route.useParams();
  const search = Route.useSearch();
  const organization = useOrganization(organizationId);
  const user = useUser();
  const navigate = useNavigate({ from: Route.fullPath });
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
