import { Link } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import type { ShareLink } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { LinkIcon, MoreIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useShareLinks } from '../api/get-share-links';
import { useSite } from '../api/get-site';
import { useUpdateShareLink } from '../api/update-share-link';
import { useDeleteShareLink } from '../api/delete-share-link';
import { CreateShareLinkDialog, RenameShareLinkDialog } from '../forms/share-link-dialogs';
import { SITE_VISIBILITY_LABELS } from '../utils/labels';
import type { SiteRef } from '../utils/paths';
import '../sites.css';

const UNNAMED = 'Unnamed link';

/** The share links of a site: each a secret address that opens a share-link site while it is active. */
export function ShareLinks({ site: ref }: { site: SiteRef }) {
  const site = useSite(ref);
  const links = useShareLinks(ref);
  const [creating, setCreating] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  const manage = site.permissions.admin;
  const create = manage && (
    <Button ref={createButton} variant="primary" onClick={() => setCreating(true)}>
      <PlusIcon /> New share link
    </Button>
  );
  return (
    <section className="section" aria-labelledby="share-links-title">
      <div className="section-header">
        <h2 id="share-links-title" className="section-title">
          Share links
        </h2>
        {links.length > 0 && create}
      </div>
      {site.visibility !== 'share-link' && (
        <p className="notice notice-info">
          <span>
            This site’s visibility is “{SITE_VISIBILITY_LABELS[site.visibility].label}”: share links let readers in only
            when it is “{SITE_VISIBILITY_LABELS['share-link'].label}”. Change it in{' '}
            <Link to="/o/$organizationId/sites/$siteId/settings" params={ref}>
              Settings
            </Link>
            .
          </span>
        </p>
      )}
      {!site.published && (
        <p className="notice notice-warning">The site is not published: its links open nothing until it is.</p>
      )}
      {links.length === 0 ? (
        <EmptyState icon={<LinkIcon width={28} height={28} />} title="No share links yet" action={create}>
          A share link is a secret address of the site for the readers you give it to.
        </EmptyState>
      ) : (
        <ul className="share-links" aria-label="Share links">
          {links.map((link) => (
            <ShareLinkItem key={link.id} site={ref} link={link} manage={manage} />
          ))}
        </ul>
      )}
      <CreateShareLinkDialog site={ref} open={creating} onOpenChange={setCreating} returnFocusRef={createButton} />
    </section>
  );
}

function ShareLinkItem({ site, link, manage }: { site: SiteRef; link: ShareLink; manage: boolean }) {
  const id = useId();
  const update = useUpdateShareLink(site);
  const remove = useDeleteShareLink(site);
  const toast = useToast();
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'rename' | 'delete'>();
  const name = link.name || UNNAMED;
  const url = link.urls.published ?? '';
  const toggle = () =>
    update.mutate(
      { shareLinkId: link.id, body: { active: !link.active } },
      {
        onSuccess: (updated) =>
          toast.show(updated.active ? `“${name}” works again` : `“${name}” deactivated: it opens nothing now`),
        onError: (error) => toast.show(errorMessage(error), 'error'),
      },
    );
  return (
    <li className="share-link card" aria-labelledby={`${id}-name`}>
      <div className="share-link-head">
        <h3 id={`${id}-name`} className="share-link-name">
          {name}
        </h3>
        {link.active ? (
          <span className="badge badge-published">Active</span>
        ) : (
          <span className="badge badge-danger">Inactive</span>
        )}
        <span className="tree-meta">
          created <RelativeTime value={link.createdAt} />
        </span>
        <span className="share-link-actions">
          {manage && (
            <Button size="sm" loading={update.isPending} onClick={toggle}>
              {link.active ? 'Deactivate' : 'Activate'}
            </Button>
          )}
          {manage && (
            <DropdownMenu>
              <DropdownMenuTrigger
                ref={trigger}
                className="btn btn-ghost btn-sm btn-icon"
                aria-label={`Actions for share link ${name}`}
              >
                <MoreIcon />
              </DropdownMenuTrigger>
              <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
                <DropdownMenuItem onSelect={() => openDialog('rename')}>Rename…</DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('delete')}>
                  Delete…
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          )}
        </span>
      </div>
      <div className="share-link-url">
        <label className="visually-hidden" htmlFor={`${id}-url`}>
          Address of {name}
        </label>
        <input
          id={`${id}-url`}
          className="input input-mono"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={url} label="Copy link" aria-label={`Copy link for ${name}`} />
      </div>
      <RenameShareLinkDialog site={site} link={link} {...dialog('rename')} />
      <ConfirmDialog
        {...dialog('delete')}
        title="Delete share link?"
        confirmLabel="Delete link"
        action={async () => {
          await remove.mutateAsync(link.id);
          toast.show(`Share link “${name}” deleted`);
        }}
      >
        <p>
          <strong>“{name}”</strong> stops working at once, for everyone who has it. To let them in again you would have
          to send a new link.
        </p>
      </ConfirmDialog>
    </li>
  );
}
