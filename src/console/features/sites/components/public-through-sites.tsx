import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Site } from '../../../../shared/contract';
import { sitesQueryOptions } from '../api/get-sites';

/** Sites that anyone can read without a key or a token. */
export const OPEN_SITE_VISIBILITIES: ReadonlyArray<Site['visibility']> = ['public', 'unlisted'];

/**
 * On a space whose own visibility keeps it private: the published public (or unlisted) sites that show it, whose
 * readers see its pages all the same. Nothing when there are none.
 */
export function PublicThroughSites({
  organizationId,
  spaceId,
  spaceVisibility,
}: {
  organizationId: string;
  spaceId: string;
  spaceVisibility: string;
}) {
  const isPrivate = spaceVisibility === 'private';
  const sites = useInfiniteQuery({
    ...sitesQueryOptions(organizationId, { space: spaceId, published: true }),
    enabled: isPrivate,
  });
  const open = (sites.data?.pages.flatMap((p) => p.items) ?? []).filter((s) =>
    OPEN_SITE_VISIBILITIES.includes(s.visibility),
  );
  if (!isPrivate || open.length === 0) return null;
  return (
    <p className="notice notice-warning" role="note">
      This space is private here, but its pages are public on{' '}
      {open.map((site, i) => (
        <span key={site.id}>
          {i > 0 && (i === open.length - 1 ? ' and ' : ', ')}
          <Link to="/o/$organizationId/sites/$siteId" params={{ organizationId, siteId: site.id }}>
            {site.title}
          </Link>
        </span>
      ))}
      : anyone can read them there.
    </p>
  );
}
