import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { MEMBER_SEARCH_MAX } from '../../../../shared/contract';
import type { Member, RoleOrGuest } from '../../../../shared/contract';
import { Button, IconButton } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TrashIcon, UserIcon } from '../../../components/ui/icons';
import { ErrorState, Loading, EmptyState, Spinner } from '../../../components/ui/states';
import { SearchInput } from '../../../components/ui/search-input';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { ROLE_VALUE_OPTIONS, roleLabel, roleToValue, valueToRole } from '../../../lib/roles';
import type { RoleValue } from '../../../lib/roles';
import { useMembers } from '../api/get-members';
import type { MembersQuery } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { useUpdateMemberRole } from '../api/update-member-role';
import { memberCount, shouldLoadMore } from '../utils/list';
import { Avatar } from '../../../components/ui/avatar';
import '../members.css';

/** The list's state as the URL holds it; absent values are the defaults (joined, newest first). */
export interface MembersListState {
  search?: string;
  role?: RoleValue;
  sort?: 'joinedAt' | 'lastSeenAt';
  order?: 'asc' | 'desc';
}

interface Props {
  organizationId: string;
  state: MembersListState;
  onStateChange: (patch: MembersListState) => void;
  /** Opens one member's details. */
  onOpenMember: (userId: string) => void;
  /** Organization admins change roles and remove members. */
  canManage: boolean;
  currentUserId: string;
}

const ROW_HEIGHT = 56;

/**
 * Every member of the organization, however many: only the rows in view are in the page, and the next keyset
 * page is fetched as the end comes near. Search, role filter and sort are the server's and live in the URL.
 */
export function MembersTable({ organizationId, state, onStateChange, onOpenMember, canManage, currentUserId }: Props) {
  const sort = state.sort ?? 'joinedAt';
  const order = state.order ?? 'desc';
  const query: MembersQuery = { search: state.search, role: state.role, sort, order };
  const members = useMembers(organizationId, query);
  const rows = members.data?.pages.flatMap((page) => page.items) ?? [];
  const count = members.data?.pages[0]?.count;

  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the console is not built with the React Compiler.
  const virtualizer = useVirtualizer({
    count: members.hasNextPage ? rows.length + 1 : rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastDrawn = items.at(-1)?.index;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = members;
  useEffect(() => {
    if (shouldLoadMore(lastDrawn, rows.length, { hasNextPage, isFetching: isFetchingNextPage })) {
      void fetchNextPage();
    }
  }, [lastDrawn, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const toggleSort = (column: 'joinedAt' | 'lastSeenAt') => {
    if (column === sort) onStateChange({ order: order === 'desc' ? 'asc' : undefined });
    else onStateChange({ sort: column === 'joinedAt' ? undefined : column, order: undefined });
  };
  const ariaSort = (column: 'joinedAt' | 'lastSeenAt') =>
    column === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined;
  const filtered = Boolean(state.search || state.role);

  return (
    <div className="members">
      <div className="members-toolbar" role="search">
        <SearchInput
          label="Search members"
          placeholder="Search by name or e-mail"
          value={state.search}
          maxLength={MEMBER_SEARCH_MAX}
          onChange={(search) => onStateChange({ search })}
        />
        <label className="members-filter">
          <span>Role</span>
          <select
            className="input select"
            value={state.role ?? ''}
            onChange={(event) => onStateChange({ role: (event.target.value || undefined) as RoleValue | undefined })}
          >
            <option value="">All roles</option>
            {ROLE_VALUE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.value === 'guest' ? 'Guests' : option.label}
              </option>
            ))}
          </select>
        </label>
        <span className="members-count" aria-live="polite">
          {count !== undefined && memberCount(count)}
          {members.isFetching && !members.isFetchingNextPage && <Spinner />}
        </span>
      </div>
      {sort === 'lastSeenAt' && (
        <p className="field-hint">Sorted by last seen: members who have never been seen are not listed.</p>
      )}

      {members.isPending ? (
        <Loading label="Loading members…" />
      ) : members.isError && rows.length === 0 ? (
        <ErrorState error={members.error} onRetry={() => void members.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<UserIcon width={28} height={28} />}
          title={filtered ? 'No member matches' : 'No members yet'}
          action={
            filtered && (
              <Button onClick={() => onStateChange({ search: undefined, role: undefined })}>Clear filters</Button>
            )
          }
        >
          {filtered ? 'Try another name, e-mail or role.' : 'Invite people by e-mail, or with an invite link.'}
        </EmptyState>
      ) : (
        <div className="members-table" role="table" aria-label="Members" aria-rowcount={(count ?? rows.length) + 1}>
          <div role="rowgroup">
            <div className="members-row members-head" role="row" aria-rowindex={1}>
              <span role="columnheader">Member</span>
              <span role="columnheader">Role</span>
              <span role="columnheader" aria-sort={ariaSort('joinedAt')}>
                <SortButton
                  label="Joined"
                  active={sort === 'joinedAt'}
                  order={order}
                  onClick={() => toggleSort('joinedAt')}
                />
              </span>
              <span role="columnheader" aria-sort={ariaSort('lastSeenAt')}>
                <SortButton
                  label="Last seen"
                  active={sort === 'lastSeenAt'}
                  order={order}
                  onClick={() => toggleSort('lastSeenAt')}
                />
              </span>
              <span role="columnheader">
                <span className="visually-hidden">Actions</span>
              </span>
            </div>
          </div>
          <div ref={scroller} className="members-scroll" role="rowgroup">
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const member = rows[item.index];
                return (
                  <div
                    key={member ? member.id : 'loader'}
                    className="members-row"
                    role="row"
                    aria-rowindex={item.index + 2}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      height: item.size,
                      transform: `translateY(${item.start}px)`,
                    }}
                  >
                    {member ? (
                      <MemberRow
                        member={member}
                        organizationId={organizationId}
                        canManage={canManage}
                        isYou={member.user.id === currentUserId}
                        onOpen={() => onOpenMember(member.user.id)}
                      />
                    ) : (
                      <span role="cell" className="members-loader">
                        {members.isFetchNextPageError ? (
                          <>
                            <span className="field-error">{errorMessage(members.error)}</span>
                            <Button size="sm" onClick={() => void members.fetchNextPage()}>
                              Try again
                            </Button>
                          </>
                        ) : (
                          <>
                            <Spinner /> Loading more members…
                          </>
                        )}
                      </span>
                    )}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      )}
    </div>
  );
}

function SortButton({
  label,
  active,
  order,
  onClick,
}: {
  label: string;
  active: boolean;
  order: 'asc' | 'desc';
  onClick: () => void;
}) {
  return (
    <button type="button" className={`sort-button${active ? ' active' : ''}`} onClick={onClick}>
      {label}
      <span aria-hidden="true">{active ? (order === 'asc' ? ' ↑' : ' ↓') : ''}</span>
      <span className="visually-hidden">
        {active ? `, sorted ${order === 'asc' ? 'oldest' : 'newest'} first` : ', sort by this column'}
      </span>
    </button>
  );
}

function MemberRow({
  member,
  organizationId,
  canManage,
  isYou,
  onOpen,
}: {
  member: Member;
  organizationId: string;
  canManage: boolean;
  isYou: boolean;
  onOpen: () => void;
}) {
  const update = useUpdateMemberRole(organizationId);
  const remove = useRemoveMember(organizationId);
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const name = member.user.displayName || member.user.email || 'Unnamed member';
  const changeRole = (role: RoleOrGuest) =>
    update.mutate(
      { member, role },
      {
        onSuccess: () => toast.show(`${name} is now ${role ? `a ${roleLabel(role).toLowerCase()}` : 'a guest'}`),
        onError: (error) => toast.show(`The role of ${name} was not changed: ${errorMessage(error)}`, 'error'),
      },
    );
  return (
    <>
      <span role="cell" className="members-person">
        <Avatar user={member.user} />
        <span className="members-person-text">
          <button type="button" className="link-button members-name" onClick={onOpen}>
            {name}
            {isYou && <span className="members-you"> (you)</span>}
          </button>
          {member.user.email && <span className="members-email">{member.user.email}</span>}
        </span>
        {member.sso && <span className="badge">SSO</span>}
        {member.disabled && <span className="badge badge-danger">Disabled</span>}
      </span>
      <span role="cell">
        {canManage ? (
          <select
            className="input select select-sm"
            aria-label={`Role of ${name}`}
            value={roleToValue(member.role)}
            disabled={update.isPending}
            onChange={(event) => changeRole(valueToRole(event.target.value))}
          >
            {ROLE_VALUE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        ) : (
          roleLabel(member.role)
        )}
      </span>
      <span role="cell" className="members-time">
        <RelativeTime value={member.joinedAt} />
      </span>
      <span role="cell" className="members-time">
        {member.lastSeenAt ? <RelativeTime value={member.lastSeenAt} /> : 'Never'}
      </span>
      <span role="cell" className="members-actions">
        {canManage && (
          <>
            <IconButton ref={removeButton} label={`Remove ${name}`} onClick={() => setConfirming(true)}>
              <TrashIcon />
            </IconButton>
            <ConfirmDialog
              open={confirming}
              onOpenChange={setConfirming}
              returnFocusRef={removeButton}
              title="Remove member?"
              confirmLabel="Remove member"
              action={async () => {
                await remove.mutateAsync(member);
                toast.show(`${name} was removed from the organization`);
              }}
            >
              <p>
                <strong>{name}</strong> loses access to the organization at once, API tokens included. Their content
                stays.
              </p>
            </ConfirmDialog>
          </>
        )}
      </span>
    </>
  );
}
