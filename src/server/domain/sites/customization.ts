import type { ServiceContext } from '../context.js';
import { transaction } from '../../storage/db.js';
import { nowIso } from '../../lib/time.js';
import * as repo from '../../storage/repos/sites.js';
import type { SiteRow, SiteSpaceRow } from '../../storage/repos/sites.js';
import {
  defaultCustomization,
  type Customization,
  type SiteSpaceCustomizationPatch,
} from '../../../shared/contract/customization.js';
import { hiddenSiteSpaces, loadSite } from './access.js';
import { NotFoundError } from '../errors.js';
import { readStructure } from './model.js';
import { requireVisibleSiteSpace } from './structure/lookup.js';
import { writeStructure } from './structure/write.js';
import { validateCondition } from './conditions.js';

type Json = Record<string, unknown>;

/**
 * The parts of the settings that hold other parts: a site space's overrides merge into these field by field. Every
 * other value (a colour, a logo, a list of links, the favicon, the announcement) is replaced whole.
 */
const CONTAINERS = new Set([
  'styling',
  'styling.sidebar',
  'internationalization',
  'header',
  'footer',
  'themes',
  'pdf',
  'feedback',
  'git',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `base` with `over` laid on it: containers merged, anything else replaced. */
function overlay(base: Json, over: Json, at = ''): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const path = at ? `${at}.${key}` : key;
    out[key] =
      CONTAINERS.has(path) && isObject(value) ? overlay(isObject(base[key]) ? base[key] : {}, value, path) : value;
  }
  return out;
}

/** Stored overrides with a PATCH applied: `null` removes an override, containers are patched field by field. */
function patched(stored: Json, patch: Json, at = ''): Json {
  const out: Json = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const path = at ? `${at}.${key}` : key;
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (CONTAINERS.has(path) && isObject(value)) {
      const inner = patched(isObject(out[key]) ? out[key] : {}, value, path);
      if (Object.keys(inner).length) out[key] = inner;
      else delete out[key];
    } else out[key] = value;
  }
  return out;
}

const parse = (json: string | null | undefined): Json | null => (json ? (JSON.parse(json) as Json) : null);

/** A site's settings: what was set, or the defaults. */
export function siteCustomization(site: Pick<SiteRow, 'customization'>): Customization {
  return (parse(site.customization) as Customization | null) ?? defaultCustomization();
}

/** A site space's settings: the site's with the site space's overrides laid on them. */
export function siteSpaceCustomization(
  site: Pick<SiteRow, 'customization'>,
  siteSpace: Pick<SiteSpaceRow, 'customization'>,
): { settings: Customization; hasOverrides: boolean } {
  const overrides = parse(siteSpace.customization);
  const base = siteCustomization(site);
  if (!overrides) return { settings: base, hasOverrides: false };
  return { settings: overlay(base as unknown as Json, overrides) as unknown as Customization, hasOverrides: true };
}

/**
 * What previewCustomization asks of the published sites: published/dispatch.ts's PublishedSites, which depends on
 * this module (a site's settings), so this one names only what it needs.
 */
export interface SitePreviews {
  preview(site: SiteRow, settings: Customization, readable: (ss: SiteSpaceRow) => boolean): Promise<string | undefined>;
}

/** Every adaptive condition of header links is checked the way section conditions are (400 naming the field). */
function validateConditions(settings: { header?: { links?: Array<{ condition?: string }> | null } | null }) {
  settings.header?.links?.forEach((link, i) => {
    if (link.condition) validateCondition(`header.links.${i}.condition`, link.condition);
  });
}

export async function getSiteCustomization(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'see it');
  return siteCustomization(site);
}

/** Replaces the site's settings (and so what every site space inherits). Published pages show them at once. */
export async function putSiteCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  body: Customization,
) {
  validateConditions(body);
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'edit', 'customize it', true);
    // The body as the route's schema parsed it (unknown fields dropped): what is read back is what was checked.
    await repo.updateSite(tx, site.id, { customization: JSON.stringify(body) });
    await repo.bumpSiteVersion(tx, site.id, nowIso());
    return body;
  });
}

export async function getSiteSpaceCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
) {
  const loaded = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'see it');
  const structure = await readStructure(ctx.db, loaded.site.id);
  const ss = await requireVisibleSiteSpace(ctx.db, ctx, loaded, structure, siteSpaceId);
  return siteSpaceCustomization(loaded.site, ss);
}

/**
 * The site's first page as it would look with `settings` (the console's live preview, before saving): for site
 * managers, showing only site spaces of spaces they can read. NotFound when there is nothing to show.
 */
export async function previewCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  settings: Customization,
  sites: SitePreviews,
): Promise<string> {
  validateConditions(settings);
  const loaded = await loadSite(ctx.db, ctx, organizationId, siteId, 'edit', 'customize it');
  const structure = await readStructure(ctx.db, loaded.site.id);
  const hidden = await hiddenSiteSpaces(ctx.db, ctx, loaded.access, { siteSpaces: structure.siteSpaces });
  const html = await sites.preview(loaded.site, settings, (ss) => !hidden.has(ss.id));
  if (html === undefined) throw new NotFoundError('This site has no page to preview yet: add a space with a page');
  return html;
}

/** Changes a site space's overrides: what the patch names, `null` removing an override. */
export async function patchSiteSpaceCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  patch: SiteSpaceCustomizationPatch,
) {
  validateConditions(patch);
  const { value } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'customize its site spaces',
    async (tx, loaded, structure) => {
      const ss = await requireVisibleSiteSpace(tx, ctx, loaded, structure, siteSpaceId);
      const overrides = patched(parse(ss.customization) ?? {}, patch as Json);
      const customization = Object.keys(overrides).length ? JSON.stringify(overrides) : null;
      await repo.updateSiteSpace(tx, ss.id, { customization });
      return siteSpaceCustomization(loaded.site, { customization });
    },
  );
  return value;
}

/** Removes every override of a site space; false when it had none (the route answers 204 then, 205 otherwise). */
export async function deleteSiteSpaceCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<boolean> {
  const { value } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'customize its site spaces',
    async (tx, loaded, structure) => {
      const ss = await requireVisibleSiteSpace(tx, ctx, loaded, structure, siteSpaceId);
      if (!ss.customization) return false;
      await repo.updateSiteSpace(tx, ss.id, { customization: null });
      return true;
    },
  );
  return value;
}
