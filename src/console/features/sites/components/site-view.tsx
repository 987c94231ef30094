import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import {
  ExternalIcon,
  EyeIcon,
  GlobeIcon,
  LayersIcon,
  LinkIcon,
  ArrowRightIcon,
  MoreIcon,
  SettingsIcon,
  TrashIcon,
  UserIcon,
} from '../../../components/ui/icons';
import { Breadcrumbs, PageHeader } from '../../../components/ui/page';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteSite } from '../api/delete-site';
import { useSite } from '../api/get-site';
import { usePublishSite } from '../api/publish-site';
import { useSitePreviewGrant } from '../api/preview-site';
import { siteStructureQueryOptions } from '../api/get-site-structure';
import { allSiteSpaces } from '../utils/structure';
import { OPEN_SITE_VISIBILITIES } from './public-through-sites';
import { useUnpublishSite } from '../api/unpublish-site';
import { plural, SITE_VISIBILITY_LABELS, SPACE_UNTITLED } from '../utils/labels';
import type { SiteRef } from '../utils/paths';

/** Breadcrumbs, title, visibility, publication and the site's actions: the top of every page of a site. */
export function SiteHeader({ site: ref, organizationTitle }: { site: SiteRef; organizationTitle: string }) {
  const site = useSite(ref);
  const { organizationId } = ref;
  return (
    <PageHeader
      breadcrumbs={
        <Breadcrumbs>
          {[
            <Link key="org" to="/o/$organizationId" params={{ organizationId }}>
              {organizationTitle}
            </Link>,
            <Link key="sites" to="/o/$organizationId/sites" params={{ organizationId }}>
              Sites
            </Link>,
            <span key="self">{site.title}</span>,
          ]}
        </Breadcrumbs>
      }
      icon={<GlobeIcon width={22} height={22} />}
      title={site.title}
      description={
        <>
          <span className={`badge badge-${site.visibility}`}>{SITE_VISIBILITY_LABELS[site.visibility].label}</span>
          {site.published ? (
            <span className="badge badge-published">Published</span>
          ) : (
            <span className="badge">Not published</span>
          )}
          {plural(site.siteSpaces, 'space')}
        </>
      }
      actions={<SiteActions site={ref} />}
    />
  );
}

/** Publish (or the link to the live site) and the "…" menu: unpublish, delete. */
function SiteActions({ site: ref }: { site: SiteRef }) {
  const site = useSite(ref);
  const navigate = useNavigate();
  const toast = useToast();
  const publish = usePublishSite(ref);
  const unpublish = useUnpublishSite(ref);
  const remove = useDeleteSite(ref, {
    onDeleted: () => navigate({ to: '/o/$organizationId/sites', params: { organizationId: ref.organizationId } }),
  });
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'delete'>();
  const manage = site.permissions.admin;
  // Readers reach these only with a share link's key or a visitor token: managers open them with a preview grant.
  const keyed = site.visibility === 'share-link' || site.visibility === 'visitor-auth';
  const preview = useSitePreviewGrant(ref);
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  const [privateSpaces, setPrivateSpaces] = useState<string[]>([]);
  const publishNow = () =>
    publish.mutate(undefined, {
      onSuccess: (published) => toast.show(`“${published.title}” is published`),
      onError: (error) => toast.show(errorMessage(error), 'error'),
    });
  return (
    <>
      {site.published && site.urls.published && !keyed && (
        <a className="btn btn-secondary" href={site.urls.published} target="_blank" rel="noopener noreferrer">
          <ExternalIcon /> Open live site
          <span className="visually-hidden"> (new tab)</span>
        </a>
      )}
      {site.published && keyed && manage && (
        <Button
          loading={preview.isPending}
          onClick={() => {
            // Opened at the click (a tab opened later is a blocked pop-up), sent to the grant once it is here.
            const tab = window.open('', '_blank');
            preview.mutate(undefined, {
              onSuccess: ({ url }) => {
                if (tab) {
                  tab.opener = null;
                  tab.location.href = url;
                } else window.location.assign(url);
              },
              onError: (error) => {
                tab?.close();
                toast.show(errorMessage(error), 'error');
              },
            });
          }}
        >
          <ExternalIcon /> Open live site
          <span className="visually-hidden"> (new tab, as a preview for 15 minutes)</span>
        </Button>
      )}
      {manage && !site.published && (
        <Button
          variant="primary"
          loading={publish.isPending || checking}
          onClick={async () => {
            // Private spaces on a site anyone can read: say so before their pages go public.
            if (OPEN_SITE_VISIBILITIES.includes(site.visibility)) {
              setChecking(true);
              try {
                const structure = await queryClient.fetchQuery(siteStructureQueryOptions(ref));
                const found = allSiteSpaces(structure).filter((ss) => ss.space.visibility === 'private');
                if (found.length) return setPrivateSpaces(found.map((ss) => ss.space.title || SPACE_UNTITLED));
              } catch (error) {
                return toast.show(errorMessage(error), 'error');
              } finally {
                setChecking(false);
              }
            }
            publishNow();
          }}
        >
          <GlobeIcon /> Publish
        </Button>
      )}
      <ConfirmDialog
        open={privateSpaces.length > 0}
        onOpenChange={(open) => !open && setPrivateSpaces([])}
        title="Publish private spaces?"
        confirmLabel="Publish anyway"
        variant="primary"
        action={async () => {
          const published = await publish.mutateAsync();
          setPrivateSpaces([]);
          toast.show(`“${published.title}” is published`);
        }}
      >
        <p>
          {privateSpaces.length === 1 ? 'This space is' : 'These spaces are'} private in the organization:{' '}
          <strong>{privateSpaces.join(', ')}</strong>. This site is{' '}
          {SITE_VISIBILITY_LABELS[site.visibility].label.toLowerCase()}: once it is published, anyone with its address
          reads {privateSpaces.length === 1 ? 'its' : 'their'} pages.
        </p>
      </ConfirmDialog>
      {manage && (
        <DropdownMenu>
          <DropdownMenuTrigger
            ref={trigger}
            className="btn btn-ghost btn-icon"
            aria-label={`Actions for site ${site.title}`}
          >
            <MoreIcon />
          </DropdownMenuTrigger>
          <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
            {site.published && (
              <DropdownMenuItem
                disabled={unpublish.isPending}
                onSelect={() =>
                  unpublish.mutate(undefined, {
                    onSuccess: () => toast.show('Unpublished: readers no longer find the site'),
                    onError: (error) => toast.show(errorMessage(error), 'error'),
                  })
                }
              >
                Unpublish
              </DropdownMenuItem>
            )}
            {site.published && <DropdownMenuSeparator />}
            <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('delete')}>
              Delete site…
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      )}
      <ConfirmDialog
        {...dialog('delete')}
        title="Delete site?"
        confirmLabel="Delete site"
        action={async () => {
          await remove.mutateAsync();
          toast.show(`Site “${site.title}” deleted`);
        }}
      >
        <p>
          <strong>“{site.title}”</strong> will be deleted with its sections, share links and settings; its published
          address stops working. The spaces it shows are not touched.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The parts of a site: its structure, share links, adaptive content, settings. */
export function SiteTabs({ site }: { site: SiteRef }) {
  const tab = (to: SiteTab, icon: ReactNode, label: string) => (
    <Link
      to={`/o/$organizationId/sites/$siteId/${to}`}
      params={site}
      className="tab"
      activeProps={{ className: 'active', 'aria-current': 'page' }}
    >
      {icon} {label}
    </Link>
  );
  return (
    <nav className="tabs" aria-label="Site sections">
      {tab('structure', <LayersIcon />, 'Structure')}
      {tab('share-links', <LinkIcon />, 'Share links')}
      {tab('redirects', <ArrowRightIcon />, 'Redirects')}
      {tab('adaptive', <UserIcon />, 'Adaptive content')}
      {tab('customization', <EyeIcon />, 'Customization')}
      {tab('settings', <SettingsIcon />, 'Settings')}
    </nav>
  );
}

type SiteTab = 'structure' | 'share-links' | 'redirects' | 'adaptive' | 'customization' | 'settings';
