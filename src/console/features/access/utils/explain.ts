import type { AccessItem, AccessReason, DefaultLevel, Role, RoleOrGuest } from '../../../../shared/contract';

/** A level on content, as a person would say it: "Edit". */
export const LEVEL_VERBS: Record<Role, string> = {
  admin: 'Admin',
  create: 'Create',
  review: 'Review',
  edit: 'Edit',
  comment: 'Comment',
  read: 'Read',
};

/** A member holding a level, as a person would say it: "Editor". */
export const LEVEL_NOUNS: Record<Role, string> = {
  admin: 'Admin',
  create: 'Creator',
  review: 'Reviewer',
  edit: 'Editor',
  comment: 'Commenter',
  read: 'Reader',
};

export const LEVEL_HINTS: Record<Role, string> = {
  admin: 'manages the item, who can access it and what it holds',
  create: 'creates content in it',
  review: 'reviews and merges change requests',
  edit: 'edits content through change requests',
  comment: 'reads and comments',
  read: 'reads',
};

export function levelNoun(level: RoleOrGuest): string {
  return level ? LEVEL_NOUNS[level] : 'No access';
}

/** "this space", or "the collection Guides, which contains this space". */
export function itemPhrase(item: AccessItem, target: { noun: 'space' | 'collection'; id: string }): string {
  if (item.id === target.id && item.object === target.noun) return `this ${target.noun}`;
  return `the ${item.object} ${item.title}, which contains this ${target.noun}`;
}

/** Words for the member an explanation is about: someone else, or the reader themselves. */
const PERSON = {
  they: { are: 'they are', their: 'their', subject: 'they' },
  you: { are: 'you are', their: 'your', subject: 'you' },
};
export type Person = keyof typeof PERSON;

/** The rule, after "because": "the team Writers has Edit on this space". */
export function because(
  reason: AccessReason,
  target: { noun: 'space' | 'collection'; id: string },
  person: Person = 'they',
): string {
  const p = PERSON[person];
  switch (reason.rule) {
    case 'organization-admin':
      return `${p.are} an admin of the organization`;
    case 'guest':
      return `${p.are} a guest of the organization, and guests only see what is shared with them`;
    case 'disabled':
      return `${p.their} membership of the organization is disabled`;
    case 'organization-role':
      return `${p.their} organization role is ${LEVEL_NOUNS[reason.role]}, and neither this ${target.noun} nor a collection containing it sets a default access`;
    case 'default-level':
      return reason.role
        ? `the default access of ${itemPhrase(reason.item, target)} is ${LEVEL_VERBS[reason.role]}`
        : `the default access of ${itemPhrase(reason.item, target)} is "No access"`;
    case 'creator':
      return `${p.subject} created this ${target.noun}`;
    case 'user-grant':
      return `${p.subject} were given ${LEVEL_VERBS[reason.role]} on ${itemPhrase(reason.item, target)}`;
    case 'team-grant':
      return `the team ${reason.team.title} has ${LEVEL_VERBS[reason.role]} on ${itemPhrase(reason.item, target)}`;
  }
}

/** The whole explanation: "Editor, because the team Writers has Edit on the collection Guides, which …". */
export function explainSentence(
  level: RoleOrGuest,
  reason: AccessReason,
  target: { noun: 'space' | 'collection'; id: string },
  person: Person = 'they',
): string {
  return `${levelNoun(level)}, because ${because(reason, target, person)}.`;
}

/** Options of the default access `<select>`; `inherit` is worded by where it inherits from. */
export function defaultLevelOptions(inheritsFrom: 'collection' | 'organization'): { value: string; label: string }[] {
  return [
    {
      value: 'inherit',
      label: inheritsFrom === 'collection' ? 'Same as the collection it is in' : "Each member's organization role",
    },
    ...(Object.keys(LEVEL_VERBS) as Role[]).map((role) => ({
      value: role,
      label: `${LEVEL_VERBS[role]}: every member ${LEVEL_HINTS[role]}`,
    })),
    { value: 'none', label: 'No access: only the people and teams below' },
  ];
}

export function defaultLevelToValue(level: DefaultLevel): string {
  return level ?? 'none';
}

export function valueToDefaultLevel(value: string): DefaultLevel {
  return value === 'none' ? null : (value as DefaultLevel);
}
