import { useId, useState } from 'react';
import { ROLES } from '../../../../shared/contract';
import type { DefaultLevel, Role, User } from '../../../../shared/contract';
import { Avatar } from '../../../components/ui/avatar';
import { Button, IconButton } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CloseIcon, TeamIcon, TrashIcon } from '../../../components/ui/icons';
import { Card } from '../../../components/ui/page';
import { EmptyState, ErrorState, FormError, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { suggestionName, type Suggestion } from '../../../lib/people-suggestions';
import { useRemoveGrant, useSetGrant, type Grantee } from '../api/change-grants';
import { useExplainAccess } from '../api/explain-access';
import { useTeamGrants, useUserGrants } from '../api/get-grants';
import { targetNoun, type AccessTarget } from '../api/target';
import { useUpdateDefaultLevel } from '../api/update-default-level';
import {
  LEVEL_VERBS,
  because,
  defaultLevelOptions,
  defaultLevelToValue,
  explainSentence,
  levelNoun,
  valueToDefaultLevel,
} from '../utils/explain';
import { PeoplePicker } from './people-picker';
import '../access.css';

export interface AccessPanelProps {
  target: AccessTarget;
  defaultLevel: DefaultLevel;
  /** The caller holds the admin level on the item: they change its access and ask about anyone. */
  canAdmin: boolean;
  /** Where `inherit` takes the level from. */
  inheritsFrom: 'collection' | 'organization';
  /** The signed-in user, who may always ask why they see the item. */
  me: Pick<User, 'id' | 'displayName' | 'email'>;
}

/**
 * "Share / access" of a space or a collection: the default level members get, the members and teams given a
 * role on it, and why a member has the level they have.
 */
export function AccessPanel(props: AccessPanelProps) {
  const { target, canAdmin } = props;
  return (
    <Card title="Access" id={`access-${target.id}`}>
      <div className="access-panel">
        <DefaultLevel {...props} />
        {canAdmin && <GiveAccess target={target} />}
        <Grants target={target} canAdmin={canAdmin} />
        <WhyAccess {...props} />
      </div>
    </Card>
  );
}

function DefaultLevel({ target, defaultLevel, canAdmin, inheritsFrom }: AccessPanelProps) {
  const id = useId();
  const update = useUpdateDefaultLevel(target);
  const toast = useToast();
  const noun = targetNoun(target);
  return (
    <section className="access-section" aria-labelledby={`${id}-title`}>
      <h3 className="card-subtitle" id={`${id}-title`}>
        Default access
      </h3>
      <div className="field">
        <label className="field-label" htmlFor={id}>
          What members of the organization get on this {noun}
        </label>
        <select
          id={id}
          className="input select"
          value={defaultLevelToValue(defaultLevel)}
          disabled={!canAdmin || update.isPending}
          aria-describedby={`${id}-hint`}
          onChange={(event) =>
            update.mutate(valueToDefaultLevel(event.target.value), {
              onSuccess: () => toast.show('Default access saved'),
            })
          }
        >
          {defaultLevelOptions(inheritsFrom).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <p className="field-hint" id={`${id}-hint`}>
          {canAdmin
            ? 'Organization admins always have full access, and guests get nothing by default. The people and teams below get at least their role.'
            : `Only administrators of this ${noun} can change who can access it.`}
        </p>
      </div>
      <FormError message={update.isError ? errorMessage(update.error) : undefined} />
    </section>
  );
}

function RoleSelect({
  label,
  value,
  onChange,
  disabled,
  small,
}: {
  label: string;
  value: Role;
  onChange: (role: Role) => void;
  disabled?: boolean;
  small?: boolean;
}) {
  return (
    <select
      className={`input select${small ? ' select-sm' : ''}`}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as Role)}
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {LEVEL_VERBS[role]}
        </option>
      ))}
    </select>
  );
}

function GiveAccess({ target }: { target: AccessTarget }) {
  const id = useId();
  const [picked, setPicked] = useState<Suggestion>();
  const [role, setRole] = useState<Role>('read');
  const give = useSetGrant(target);
  const toast = useToast();
  const noun = targetNoun(target);

  const submit = () => {
    if (!picked) return;
    const who: Grantee =
      picked.kind === 'team' ? { kind: 'team', id: picked.team.id } : { kind: 'user', id: picked.member.user.id };
    const name = suggestionName(picked);
    give.mutate(
      { who, role },
      {
        onSuccess: () => {
          toast.show(
            `${picked.kind === 'team' ? `The team ${name}` : name} now has ${LEVEL_VERBS[role]} on this ${noun}`,
          );
          setPicked(undefined);
        },
      },
    );
  };

  return (
    <section className="access-section" aria-labelledby={`${id}-title`}>
      <h3 className="card-subtitle" id={`${id}-title`}>
        Give access
      </h3>
      {picked ? (
        <div className="access-picked">
          <span className="access-chip">
            {picked.kind === 'team' ? (
              <span className="access-team-icon" aria-hidden="true">
                <TeamIcon width={16} height={16} />
              </span>
            ) : (
              <Avatar user={picked.member.user} size={22} />
            )}
            <span>
              {picked.kind === 'team' ? 'Team ' : ''}
              <strong>{suggestionName(picked)}</strong>
            </span>
            <IconButton
              label={`Choose someone other than ${suggestionName(picked)}`}
              onClick={() => setPicked(undefined)}
            >
              <CloseIcon />
            </IconButton>
          </span>
          <RoleSelect label={`Role to give ${suggestionName(picked)}`} value={role} onChange={setRole} />
          <Button variant="primary" loading={give.isPending} onClick={submit}>
            Give access
          </Button>
        </div>
      ) : (
        <PeoplePicker
          organizationId={target.organizationId}
          teams
          label="Find a member or a team"
          placeholder="Name or e-mail of a member, or a team's name"
          onPick={(chosen) => {
            give.reset();
            setPicked(chosen);
          }}
        />
      )}
      <FormError message={give.isError ? errorMessage(give.error) : undefined} />
    </section>
  );
}

function Grants({ target, canAdmin }: { target: AccessTarget; canAdmin: boolean }) {
  const id = useId();
  const teams = useTeamGrants(target);
  const users = useUserGrants(target);
  const noun = targetNoun(target);
  const teamItems = teams.data?.pages.flatMap((p) => p.items) ?? [];
  const userItems = users.data?.pages.flatMap((p) => p.items) ?? [];
  const total = (teams.data?.pages[0]?.count ?? 0) + (users.data?.pages[0]?.count ?? 0);

  let body;
  if (teams.isPending || users.isPending) body = <Loading label="Loading who has access…" />;
  else if (teams.isError || users.isError)
    body = (
      <ErrorState
        error={teams.error ?? users.error}
        title="Who has access could not be loaded"
        onRetry={() => {
          void teams.refetch();
          void users.refetch();
        }}
      />
    );
  else if (teamItems.length + userItems.length === 0)
    body = (
      <EmptyState title="No one has been given access yet" level={3}>
        Members get the default access above.{canAdmin ? ' Give a member or a team a role to change that.' : ''}
      </EmptyState>
    );
  else
    body = (
      <>
        <ul className="team-members access-grants" aria-label={`Teams and members with access to this ${noun}`}>
          {teamItems.map((entry) => (
            <GrantRow
              key={`team-${entry.team.id}`}
              target={target}
              who={{ kind: 'team', id: entry.team.id }}
              name={entry.team.title}
              detail={`Team · ${entry.team.members} ${entry.team.members === 1 ? 'member' : 'members'}`}
              role={entry.permission}
              canAdmin={canAdmin}
            />
          ))}
          {userItems.map((entry) => (
            <GrantRow
              key={`user-${entry.user.id}`}
              target={target}
              who={{ kind: 'user', id: entry.user.id }}
              name={entry.user.displayName || entry.user.email || 'Unnamed member'}
              detail={entry.user.email}
              user={entry.user}
              role={entry.permission}
              canAdmin={canAdmin}
            />
          ))}
        </ul>
        {(teams.hasNextPage || users.hasNextPage) && (
          <div className="list-more">
            <Button
              loading={teams.isFetchingNextPage || users.isFetchingNextPage}
              onClick={() => {
                if (teams.hasNextPage) void teams.fetchNextPage();
                if (users.hasNextPage) void users.fetchNextPage();
              }}
            >
              Show more
            </Button>
          </div>
        )}
      </>
    );

  return (
    <section className="access-section" aria-labelledby={`${id}-title`}>
      <h3 className="card-subtitle" id={`${id}-title`}>
        People and teams with access{total > 0 ? ` (${total})` : ''}
      </h3>
      {body}
    </section>
  );
}

function GrantRow({
  target,
  who,
  name,
  detail,
  user,
  role,
  canAdmin,
}: {
  target: AccessTarget;
  who: Grantee;
  name: string;
  detail?: string;
  user?: Pick<User, 'displayName' | 'email' | 'photoURL'>;
  role: Role;
  canAdmin: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const setRole = useSetGrant(target);
  const remove = useRemoveGrant(target);
  const toast = useToast();
  const noun = targetNoun(target);
  const called = who.kind === 'team' ? `the team ${name}` : name;
  return (
    <li className="team-member">
      {user ? (
        <Avatar user={user} />
      ) : (
        <span className="access-team-icon" aria-hidden="true">
          <TeamIcon width={18} height={18} />
        </span>
      )}
      <span className="members-person-text">
        <span className="members-name">{name}</span>
        {detail && <span className="members-email">{detail}</span>}
      </span>
      {canAdmin ? (
        <RoleSelect
          small
          label={`Role of ${called} on this ${noun}`}
          value={role}
          disabled={setRole.isPending}
          onChange={(next) =>
            setRole.mutate(
              { who, role: next },
              {
                onSuccess: () =>
                  toast.show(`${called[0]!.toUpperCase()}${called.slice(1)} now has ${LEVEL_VERBS[next]}`),
                onError: (error) => toast.show(errorMessage(error), 'error'),
              },
            )
          }
        />
      ) : (
        <span className="badge">{LEVEL_VERBS[role]}</span>
      )}
      {canAdmin && (
        <>
          <IconButton label={`Remove the access of ${called}`} onClick={() => setConfirming(true)}>
            <TrashIcon />
          </IconButton>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Remove access?"
            confirmLabel="Remove access"
            action={async () => {
              await remove.mutateAsync(who);
              toast.show(`Removed the access of ${called}`);
            }}
          >
            <p>
              {called[0]!.toUpperCase()}
              {called.slice(1)} will no longer have {LEVEL_VERBS[role]} on this {noun} through this grant.{' '}
              {who.kind === 'team' ? 'Its members keep' : 'They keep'} any access from the default access, their
              organization role or other grants.
            </p>
          </ConfirmDialog>
        </>
      )}
    </li>
  );
}

function WhyAccess({ target, canAdmin, me }: AccessPanelProps) {
  const id = useId();
  const [asked, setAsked] = useState<{ id: string; name: string; self: boolean }>();
  const explained = useExplainAccess(target, asked?.id);
  const noun = targetNoun(target);
  const subject = { noun, id: target.id };
  return (
    <section className="access-section" aria-labelledby={`${id}-title`}>
      <h3 className="card-subtitle" id={`${id}-title`}>
        Why can someone see this?
      </h3>
      <div className="access-why-ask">
        {canAdmin && (
          <PeoplePicker
            organizationId={target.organizationId}
            teams={false}
            label="Pick a member"
            placeholder="Name or e-mail of a member"
            onPick={(picked) =>
              picked.kind === 'user' &&
              setAsked({
                id: picked.member.user.id,
                name: suggestionName(picked),
                self: picked.member.user.id === me.id,
              })
            }
          />
        )}
        <Button onClick={() => setAsked({ id: me.id, name: 'You', self: true })}>Why can I see this?</Button>
      </div>
      <div className="access-why" aria-live="polite">
        {asked &&
          (explained.isPending ? (
            <Loading label={`Finding out why ${asked.self ? 'you' : asked.name} can see this…`} />
          ) : explained.isError ? (
            <FormError message={errorMessage(explained.error)} />
          ) : (
            <div className="access-answer">
              <p>
                <strong>{asked.self ? 'You' : explained.data.user.displayName || asked.name}</strong>:{' '}
                {explainSentence(explained.data.level, explained.data.reason, subject, asked.self ? 'you' : 'they')}
              </p>
              {explained.data.reasons.length > 1 && (
                <>
                  <p className="field-hint">Also applies, but gives no more:</p>
                  <ul className="access-also">
                    {explained.data.reasons.slice(1).map((reason, index) => (
                      <li key={index}>
                        {levelNoun(reason.role)}, because {because(reason, subject, asked.self ? 'you' : 'they')}.
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          ))}
      </div>
    </section>
  );
}
