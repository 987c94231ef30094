import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { DocumentTitle } from '../components/ui/page';
import { useUser } from '../features/auth/api/get-user';
import { Invitations } from '../features/members/components/invitations';
import { MemberDialog } from '../features/members/components/member-dialog';
import { MembersTable } from '../features/members/components/members-table';
import type { MembersListState } from '../features/members/components/members-table';
import { useOrganization } from '../features/organizations/api/get-organization';
import { membersRoute } from './members';

export function MembersPage() {
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
