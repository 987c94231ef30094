import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { SiteRedirect } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ArrowRightIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { spacePagesQueryOptions } from '../../../lib/space-pages';
import { useSite } from '../api/get-site';
import { useSiteStructure } from '../api/get-site-structure';
import { useDeleteSiteRedirect, useSiteRedirects } from '../api/site-redirects';
import { CreateRedirectDialog } from '../forms/redirect-dialog';
import type { SiteRef } from '../utils/paths';
import { flatPages, redirectPlaces, type RedirectPlace } from '../utils/redirects';
import '../sites.css';

/** Redirects of a site: old addresses that lead readers to a section, a site space or a page. */
export function SiteRedirects({ site: ref }: { site: SiteRef }) {
  const site = useSite(ref);
  const redirects = useSiteRedirects(ref);
  const places = redirectPlaces(useSiteStructure(ref));
  const [creating, setCreating] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  const manage = site.permissions.edit;
  const create = manage && places.length > 0 && (
    <Button ref={createButton} variant="primary" onClick={() => setCreating(true)}>
      <PlusIcon /> New redirect
    </Button>
  );
  return (
    <section className="section" aria-labelledby="redirects-title">
      <div className="section-header">
        <h2 id="redirects-title" className="section-title">
          Redirects
        </h2>
        {redirects.length > 0 && create}
      </div>
      {redirects.length === 0 ? (
        <EmptyState icon={<ArrowRightIcon width={28} height={28} />} title="No redirects yet" action={create}>
          {places.length === 0
            ? 'Add content to the site first: a redirect leads to a section, a site space or a page of it.'
            : 'A redirect keeps an old address working: readers who open it land on the section, site space or page you choose.'}
        </EmptyState>
      ) : (
        <ul className="redirects" aria-labelledby="redirects-title">
          {redirects.map((redirect) => (
            <RedirectItem key={redirect.id} site={ref} redirect={redirect} places={places} manage={manage} />
          ))}
        </ul>
      )}
      {manage && (
        <CreateRedirectDialog
          site={ref}
          places={places}
          open={creating}
          onOpenChange={setCreating}
          returnFocusRef={createButton}
        />
      )}
    </section>
  );
}

function RedirectItem({
  site,
  redirect,
  places,
  manage,
}: {
  site: SiteRef;
  redirect: SiteRedirect;
  places: RedirectPlace[];
  manage: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const remove = useDeleteSiteRedirect(site);
  const toast = useToast();
  const { destination } = redirect;
  const place = places.find((p) =>
    destination.kind === 'site-section' ? p.id === destination.siteSectionId : p.id === destination.siteSpaceId,
  );
  return (
    <li className="redirect card">
      <code className="redirect-source">{redirect.source}</code>
      <ArrowRightIcon aria-hidden="true" />
      <span className="redirect-target">
        <span className="visually-hidden">leads to </span>
        {place ? place.label : <span className="tree-meta">a part of the site that is gone</span>}
        {destination.kind === 'site-page' && place?.siteSpace && (
          <>
            {' › '}
            <PageTitle spaceId={place.siteSpace.space.id} pageId={destination.pageId} />
          </>
        )}
      </span>
      {manage && (
        <>
          <Button
            ref={deleteButton}
            size="sm"
            variant="ghost"
            className="btn-icon"
            aria-label={`Delete redirect from ${redirect.source}`}
            onClick={() => setConfirming(true)}
          >
            <TrashIcon />
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            returnFocusRef={deleteButton}
            title="Delete redirect?"
            confirmLabel="Delete redirect"
            action={async () => {
              await remove.mutateAsync(redirect.id);
              toast.show(`Redirect from ${redirect.source} deleted`);
            }}
          >
            <p>
              <code>{redirect.source}</code> stops leading anywhere: readers who open it get “Page not found”, unless a
              page has that address.
            </p>
          </ConfirmDialog>
        </>
      )}
    </li>
  );
}

/** A page's title, read from its space's page tree (shared with every other reader of that tree). */
function PageTitle({ spaceId, pageId }: { spaceId: string; pageId: string }) {
  const pages = useQuery(spacePagesQueryOptions(spaceId));
  if (!pages.data) return <span className="tree-meta">…</span>;
  const found = flatPages(pages.data).find((p) => p.page.id === pageId);
  return found ? <>{found.page.title}</> : <span className="tree-meta">a page that is gone</span>;
}
