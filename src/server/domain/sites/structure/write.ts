import type { ServiceContext } from '../../context.js';
import { transaction, type Tx } from '../../../storage/db.js';
import { nowIso } from '../../../lib/time.js';
import * as repo from '../../../storage/repos/sites.js';
import { DomainError, InvalidError } from '../../errors.js';
import { SITE_STRUCTURE_MAX } from '../../../../shared/contract/sites.js';
import type { StructureView } from '../../../presenters/site.js';
import { loadSite, structureView, type LoadedSite } from '../access.js';
import { type Structure, readStructure } from '../model.js';

/**
 * How every change to a site's structure (its sections, site spaces and section groups) is written, and the rules
 * those writes share: the size limit of a structure, and paths unique among siblings.
 */

/** A path that a sibling already has: 409, naming the field. */
export class PathTakenError extends DomainError {
  constructor(field: string, what: string) {
    const message = `is already the path of another ${what} here: paths are unique among siblings`;
    super(409, `${field}: ${message}`, [{ path: field, message }]);
  }
}

export interface StructureResult {
  view: StructureView;
  id: string;
}

type Write<T> = (tx: Tx, loaded: LoadedSite, structure: Structure, now: string) => Promise<T>;

/**
 * Runs a structural write: the organization's lock, the caller checked for the manage role, the structure read
 * inside the transaction, and the site's version bumped so that published pages are rendered anew.
 */
export async function writeStructure<T>(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  action: string,
  fn: Write<T>,
) {
  return transaction(ctx.db, async (tx) => {
    const loaded = await loadSite(tx, ctx, organizationId, siteId, 'edit', action, true);
    const structure = await readStructure(tx, loaded.site.id);
    const now = nowIso();
    const value = await fn(tx, loaded, structure, now);
    await repo.bumpSiteVersion(tx, loaded.site.id, now);
    const site = (await repo.findSiteById(tx, loaded.site.id))!;
    return { value, view: await structureView(tx, ctx, { ...loaded, site }) };
  });
}

export function limit(count: number, what: string, field: string) {
  if (count >= SITE_STRUCTURE_MAX) throw new InvalidError(field, `a site holds at most ${SITE_STRUCTURE_MAX} ${what}`);
}
