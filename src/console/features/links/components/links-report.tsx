import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { ContentLink, ContentLocation, LinkPageLocation, LinkStatus } from '../../../../shared/contract';
import { CHANGE_REQUEST_SUBJECT_MAX } from '../../../../shared/contract/constants';
import { Button } from '../../../components/ui/button';
import { LinkIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, FormError, Loading } from '../../../components/ui/states';
import { errorMessage } from '../../../lib/api-client';
import { spaceLinksQueryOptions, useFixInChangeRequest } from '../api/get-links';
import '../links.css';

const FILTERS: Array<{ status: LinkStatus | undefined; label: string }> = [
  { status: 'broken', label: 'Broken' },
  { status: undefined, label: 'All links' },
];

const STATUS_LABEL: Record<LinkStatus, string> = { ok: 'OK', broken: 'Broken', 'in-app': 'In the app' };

/** What a link points to, in words. */
function describeTarget(target: ContentLocation): string {
  if (target.kind === 'url') return target.url;
  if (target.kind === 'file') return target.file?.name ?? target.reference ?? 'a file';
  const page = target.page?.title ?? target.reference ?? 'a page';
  return target.internalLocation ? `${page} #${target.internalLocation.anchor}` : page;
}

/**
 * The links of a space's current content: broken ones first (a page or file that is not there, or an anchor the
 * page lacks), each with the pages it is on and a way to fix it in a new change request.
 */
export function LinksReport({ organizationId, spaceId }: { organizationId: string; spaceId: string }) {
  const [status, setStatus] = useState<LinkStatus | undefined>('broken');
  const links = useInfiniteQuery(spaceLinksQueryOptions(spaceId, status));
  const stats = links.data?.pages[0]?.stats;
  const items = links.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section className="links-report" aria-labelledby="links-heading">
      <div className="links-toolbar">
        <h2 id="links-heading" className="section-title">
          Links
        </h2>
        {stats && (
          <p className="links-stats">
            {stats.total} link{stats.total === 1 ? '' : 's'},{' '}
            <strong className={stats.broken.total ? 'links-broken-count' : undefined}>
              {stats.broken.total} broken
            </strong>
          </p>
        )}
        <div className="segmented" role="group" aria-label="Show">
          {FILTERS.map((filter) => (
            <button
              key={filter.label}
              type="button"
              aria-pressed={status === filter.status}
              onClick={() => setStatus(filter.status)}
            >
              {filter.label}
            </button>
          ))}
        </div>
      </div>
      {links.isPending ? (
        <Loading label="Reading links…" />
      ) : links.isError ? (
        <ErrorState error={links.error} onRetry={() => void links.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<LinkIcon width={24} height={24} />}
          title={status === 'broken' ? 'No broken links' : 'No links'}
        >
          {status === 'broken'
            ? 'Every link to a page, an anchor or a file of this space finds its target.'
            : 'No page of this space links anywhere yet.'}
        </EmptyState>
      ) : (
        <>
          <table className="links-table">
            <thead>
              <tr>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col">Found on</th>
              </tr>
            </thead>
            <tbody>
              {items.map((link, i) => (
                <LinkRow key={i} link={link} organizationId={organizationId} spaceId={spaceId} />
              ))}
            </tbody>
          </table>
          {links.hasNextPage && (
            <div className="list-more">
              <Button onClick={() => void links.fetchNextPage()} loading={links.isFetchingNextPage}>
                Show more
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function LinkRow({ link, organizationId, spaceId }: { link: ContentLink; organizationId: string; spaceId: string }) {
  const target = describeTarget(link.targetReference);
  return (
    <tr>
      <td className="links-target">
        {link.targetReference.kind === 'url' ? (
          <a href={link.targetReference.url} target="_blank" rel="noopener noreferrer">
            {target}
          </a>
        ) : (
          target
        )}
        <span className="links-kind">{link.targetReference.kind}</span>
        {link.targetReference.kind === 'page' && link.targetReference.internalLocation?.suggestion && (
          <p className="links-suggestion">
            Did you mean <code>#{link.targetReference.internalLocation.suggestion}</code>?
          </p>
        )}
      </td>
      <td>
        <span className={`badge badge-link-${link.status}`}>{STATUS_LABEL[link.status]}</span>
      </td>
      <td>
        <ul className="links-locations">
          {link.locationReferences.map((location) => (
            <li key={location.page.id}>
              <Link
                to="/o/$organizationId/spaces/$spaceId/pages/$pageId"
                params={{ organizationId, spaceId, pageId: location.page.id }}
              >
                {location.page.title || 'Untitled'}
              </Link>
              {link.status === 'broken' && (
                <FixButton
                  organizationId={organizationId}
                  spaceId={spaceId}
                  location={location}
                  target={target}
                  find={findText(link.targetReference)}
                />
              )}
            </li>
          ))}
        </ul>
      </td>
    </tr>
  );
}

/** The text of a broken link's target as the page writes it (its `#anchor`, else what it names), to find it. */
function findText(target: ContentLocation): string | undefined {
  if (target.kind === 'page') return target.internalLocation ? `#${target.internalLocation.anchor}` : target.reference;
  return target.kind === 'file' ? target.reference : undefined;
}

/** Opens a new change request on the page holding the broken link, in the editor, the link selected. */
function FixButton({
  organizationId,
  spaceId,
  location,
  target,
  find,
}: {
  organizationId: string;
  spaceId: string;
  location: LinkPageLocation;
  target: string;
  find?: string;
}) {
  const navigate = useNavigate();
  const create = useFixInChangeRequest(spaceId);
  const fix = () =>
    create.mutate(
      { subject: `Fix the broken link to ${target}`.slice(0, CHANGE_REQUEST_SUBJECT_MAX) },
      {
        onSuccess: (cr) =>
          void navigate({
            to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages/$pageId',
            params: { organizationId, spaceId, number: cr.number, pageId: location.page.id },
            ...(find ? { search: { find } } : {}),
          }),
      },
    );
  return (
    <>
      <Button
        size="sm"
        onClick={fix}
        loading={create.isPending}
        aria-label={`Fix in a change request: ${target} on ${location.page.title}`}
      >
        Fix in a change request
      </Button>
      {create.isError && <FormError message={errorMessage(create.error)} />}
    </>
  );
}
