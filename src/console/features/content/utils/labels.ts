import { SPACE_EDIT_MODES, SPACE_VISIBILITIES } from '../../../../shared/contract/constants';
import type { SpaceEditMode, SpaceVisibility } from '../../../../shared/contract';

export const VISIBILITY_LABELS: Record<SpaceVisibility, { label: string; short: string; hint: string }> = {
  private: { label: 'Private', short: 'Private', hint: 'Only members of the organization can read it.' },
  'in-collection': {
    label: 'Same as its collection',
    short: 'Inherited',
    hint: 'Follows the visibility of the collection it is in.',
  },
  public: { label: 'Public', short: 'Public', hint: 'Anyone on the internet can read it.' },
  unlisted: { label: 'Unlisted', short: 'Unlisted', hint: 'Anyone with the link can read it; it is not listed.' },
  'share-link': { label: 'Share link', short: 'Share link', hint: 'Readable through a secret link you share.' },
  'visitor-auth': {
    label: 'Visitor authentication',
    short: 'Visitor auth',
    hint: 'Readers sign in through your own authentication.',
  },
};

export const EDIT_MODE_LABELS: Record<SpaceEditMode, { label: string; hint: string }> = {
  live: {
    label: 'Live',
    hint: 'Editors change the content in change requests, which reviewers merge; imports apply at once.',
  },
  locked: { label: 'Locked', hint: 'Nothing changes the content: no edits, merges or imports until it is unlocked.' },
};

export const visibilityOptions = (inCollection: boolean) =>
  SPACE_VISIBILITIES.map((value) => ({
    value,
    label:
      VISIBILITY_LABELS[value].label + (value === 'in-collection' && !inCollection ? ' (not in a collection)' : ''),
    hint: VISIBILITY_LABELS[value].hint,
    disabled: value === 'in-collection' && !inCollection,
  }));

export const editModeOptions = SPACE_EDIT_MODES.map((value) => ({
  value,
  label: EDIT_MODE_LABELS[value].label,
  hint: EDIT_MODE_LABELS[value].hint,
}));

export const SPACE_UNTITLED = 'Untitled';
