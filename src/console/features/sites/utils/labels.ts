import { SITE_VISIBILITIES } from '../../../../shared/contract';
import type { SiteVisibility } from '../../../../shared/contract';

export const SITE_VISIBILITY_LABELS: Record<SiteVisibility, { label: string; short: string; hint: string }> = {
  public: { label: 'Public', short: 'Public', hint: 'Anyone can read it, and search engines index it.' },
  unlisted: {
    label: 'Unlisted',
    short: 'Unlisted',
    hint: 'Anyone with its address can read it; search engines are asked not to index it.',
  },
  'share-link': {
    label: 'Share links',
    short: 'Share links',
    hint: 'Only readers who open it through an active share link can read it.',
  },
  'visitor-auth': {
    label: 'Visitor authentication',
    short: 'Visitor auth',
    hint: 'Only readers carrying a visitor token signed with the site’s key can read it.',
  },
};

export const siteVisibilityOptions = SITE_VISIBILITIES.map((value) => ({
  value,
  label: SITE_VISIBILITY_LABELS[value].label,
  hint: SITE_VISIBILITY_LABELS[value].hint,
}));

export const SPACE_UNTITLED = 'Untitled';

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What a claim condition does, for people: where conditions apply at all. */
export const CONDITION_HINT =
  'A JavaScript-like expression over visitor.claims, e.g. visitor.claims.beta === true. Visitors whose claims do not match do not see it. Conditions apply on sites with adaptive content on, or with visitor authentication.';
