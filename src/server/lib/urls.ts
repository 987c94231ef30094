/**
 * URL building, in one module that domain code and presenters both import: the API and console locations, the
 * published sites' paths, and the paths of served files.
 */

/** Builds the `urls.*` fields: API locations under /v1 and console locations, both from PUBLIC_URL. */
export class Urls {
  constructor(
    readonly base: string,
    /** Where integrations' HTTP endpoints are served (INTEGRATIONS_ORIGIN), when they are. */
    readonly integrations?: string,
  ) {}
  api(path: string): string {
    return `${this.base}/v1${path}`;
  }
  app(path: string): string {
    return `${this.base}${path}`;
  }
}

/**
 * The origin a request was made to (`https://docs.example.com`), as the browser reached it: what a page's
 * Content-Security-Policy names its own script paths by (a source with a path needs a host).
 */
export function requestOrigin(request: { protocol: string; host: string }): string {
  return `${request.protocol}://${request.host}`;
}

/** Path prefix of published sites on this server; it collides with neither /v1 nor the console's routes. */
export const SITES_PREFIX = '/sites';
/** Segment that introduces a share key in a published URL (site paths cannot start with "~"). */
export const SHARE_SEGMENT = '~share';
/** Segment that introduces a file of the site space in a published URL. */
export const FILES_SEGMENT = '~files';
/**
 * Segment before a page's path that takes a reader's feedback on it (`POST …/~feedback/{page path}`): the site's
 * integrations that read feedback get it.
 */
export const FEEDBACK_SEGMENT = '~feedback';
/** Segment of a published site's search page (`…/~search?q=`), after the share key when there is one. */
export const SEARCH_SEGMENT = '~search';
/** Segment of a site space's list of pages (`…/~pages[/{pageId}]?from=&to=`): what its navigation leaves out. */
export const PAGES_SEGMENT = '~pages';

/** Root URL of a published site; with a share key, the root of the site as seen through that share link. */
export function publishedSiteUrl(base: string, siteId: string, shareKey?: string): string {
  const root = `${base}${SITES_PREFIX}/${siteId}`;
  return shareKey ? `${root}/${SHARE_SEGMENT}/${encodeURIComponent(shareKey)}` : root;
}

/** Where the bytes of a file of a revision are served (`GET …/revisions/{id}/files/{fileId}/download`). */
export function fileDownloadUrl(urls: Urls, spaceId: string, revisionId: string, fileId: string): string {
  return urls.api(`/spaces/${spaceId}/revisions/${revisionId}/files/${fileId}/download`);
}

/** Where an uploaded photo is served (stored as a path; presenters make it absolute). */
export function userPhotoPath(userId: string, photoId: string): string {
  return `/v1/users/${userId}/photos/${photoId}`;
}
