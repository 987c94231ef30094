import crypto from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { transaction } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import * as repo from '../../storage/repos/sites.js';
import type { ShareLinkRow } from '../../storage/repos/sites.js';
import { keysetPage } from '../../storage/pagination.js';
import { NotFoundError } from '../errors.js';
import type { UpdateShareLinkBody } from '../../../shared/contract/sites.js';
import { loadSite } from './access.js';

/**
 * Share links of a site: each has a secret key (192 random bits) that opens a share-link site. The published site
 * checks the key against the database on every request, so a link that is deactivated or deleted stops working
 * at once, in every server process.
 */
export async function listShareLinks(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  page: string | undefined,
  limit: number,
) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'admin', 'see its share links');
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => repo.listShareLinks(ctx.db, site.id, after, take),
    count: () => repo.countShareLinks(ctx.db, site.id),
    key: (r) => [r.id],
  });
  return { site, ...result };
}

export async function createShareLink(ctx: ServiceContext, organizationId: string, siteId: string, name?: string) {
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'admin', 'create share links');
    const row: ShareLinkRow = {
      id: newId(),
      site_id: site.id,
      name: name ?? '',
      key: crypto.randomBytes(24).toString('base64url'),
      active: 1,
      created_at: nowIso(),
    };
    await repo.insertShareLink(tx, row);
    return { site, link: row };
  });
}

export async function updateShareLink(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  body: UpdateShareLinkBody,
) {
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'admin', 'change share links');
    const link = await repo.findShareLink(tx, site.id, shareLinkId);
    if (!link) throw new NotFoundError('Share link not found');
    const patch: Partial<ShareLinkRow> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.active !== undefined) patch.active = body.active ? 1 : 0;
    await repo.updateShareLink(tx, link.id, patch);
    return { site, link: (await repo.findShareLink(tx, site.id, link.id))! };
  });
}

/** False when there was no such share link (the route answers 204). */
export async function deleteShareLink(ctx: ServiceContext, organizationId: string, siteId: string, id: string) {
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'admin', 'delete share links');
    const link = await repo.findShareLink(tx, site.id, id);
    return link ? repo.deleteShareLink(tx, link.id) : false;
  });
}
