import type { ContentLink, ContentLocation, LinkPageLocation, LinkStatus } from '../../shared/contract/links.js';
import type { PageType } from '../../shared/contract/content.js';
import type { FileEntry } from '../domain/content/model.js';
import type { TargetData } from '../domain/links/resolve.js';
import type { LinkPageRow, LinkTargetRow } from '../storage/repos/links.js';
import { pageApp, presentFile } from './revision.js';
import type { Urls } from '../lib/urls.js';
import type { Organization } from '../../shared/contract/organizations.js';
import type { Space } from '../../shared/contract/spaces.js';

/** Where the links being presented live: a space's current content, or a change request's. */
export interface LinksAt {
  organizationId: string;
  spaceId: string;
  /** The revision the links were read at. */
  revisionId: string;
  changeRequest?: { id: string; number: number };
  organization: Organization;
  space: Space;
}

/**
 * The organization and the space of a location, as the contract's objects. (The contract's `versionContext` holds a
 * whole revision or change request: left out, as it may be; the request already names which content was read.)
 */
function context(at: LinksAt) {
  return { organization: at.organization, space: at.space };
}

function presentLinkedPage(urls: Urls, at: LinksAt, page: LinkPageRow) {
  return {
    id: page.page_id,
    title: page.title,
    type: page.type as PageType,
    path: page.path,
    urls: {
      app: pageApp(
        urls,
        { organizationId: at.organizationId, spaceId: at.spaceId, changeRequest: at.changeRequest?.number },
        page.page_id,
      ),
    },
  };
}

export function presentPageLocation(urls: Urls, at: LinksAt, page: LinkPageRow): LinkPageLocation {
  return { kind: 'page', ...context(at), page: presentLinkedPage(urls, at, page) };
}

/** What a target needs to be presented: the pages and files it may name, as they are in the revision. */
export interface TargetLookups {
  pages: Map<string, LinkPageRow>;
  files: Map<string, FileEntry>;
}

export function presentTarget(urls: Urls, at: LinksAt, target: LinkTargetRow, found: TargetLookups): ContentLocation {
  const data = JSON.parse(target.data) as TargetData;
  if (data.k === 'url') return { kind: 'url', url: data.url };
  if (data.k === 'file') {
    const file = 'id' in data ? found.files.get(data.id) : undefined;
    return {
      kind: 'file',
      ...context(at),
      ...(file && 'id' in data
        ? { file: presentFile(urls, at.spaceId, at.revisionId, data.id, file) }
        : { reference: 'ref' in data ? data.ref : data.id }),
    };
  }
  const page = 'id' in data ? found.pages.get(data.id) : undefined;
  return {
    kind: 'page',
    ...context(at),
    ...(page ? { page: presentLinkedPage(urls, at, page) } : { reference: 'ref' in data ? data.ref : data.id }),
    ...(data.a !== undefined ? { internalLocation: { type: 'anchor' as const, anchor: data.a } } : {}),
  };
}

export function presentLink(
  urls: Urls,
  at: LinksAt,
  target: LinkTargetRow,
  found: TargetLookups,
  locations: LinkPageRow[],
): ContentLink {
  return {
    status: target.status as LinkStatus,
    relation: target.relation as ContentLink['relation'],
    targetReference: presentTarget(urls, at, target, found),
    locationReferences: locations.map((page) => presentPageLocation(urls, at, page)),
  };
}

/** Ids of the pages and files targets name (to read them before presenting). */
export function targetIds(targets: LinkTargetRow[]): { pages: string[]; files: string[] } {
  const pages: string[] = [];
  const files: string[] = [];
  for (const t of targets) {
    const data = JSON.parse(t.data) as TargetData;
    if (data.k === 'page' && 'id' in data) pages.push(data.id);
    if (data.k === 'file' && 'id' in data) files.push(data.id);
  }
  return { pages, files };
}
