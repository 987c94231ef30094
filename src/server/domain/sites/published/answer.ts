import type { FileEntry } from '../../content/model.js';
import type { OpenBlob } from '../../../storage/repos/objects.js';

/**
 * A request to a published site, as the route (routes/published-sites.ts) hands it over, and the answers it can get:
 * a page, a file, a machine file or a page's markdown, a search's JSON, or a redirect.
 */

export interface ServeRequest {
  siteId: string;
  /** Decoded path segments after the site's root. */
  segments: string[];
  /** Visitor JWT from the query string (it is then kept in a cookie) or from the cookie. */
  queryToken?: string;
  cookieToken?: string;
  /**
   * Query parameters the site reads: a search's (`~search`: `q`, `in`, `page`, `limit`, `scope`, `format`) and a
   * list of pages' (`~pages`: `from`, `to`).
   */
  query?: Record<string, string | undefined>;
}

export type ServeResult =
  | {
      kind: 'html';
      status: number;
      html: string;
      /** Ask robots not to index (every visibility except public). */
      noindex: boolean;
      /** The answer depends on who asks (share key, visitor token): never stored by shared caches. */
      private: boolean;
      /** A visitor token given in the query string and valid: keep it in a cookie scoped to the site. */
      keepToken?: string;
      /** The strong ETag of `html` (a digest of its bytes), on pages everyone may cache: `If-None-Match` gets 304. */
      etag?: string;
      /** `html` compressed, once per rendered page and kept with it (rendered pages only). */
      encoded?: (coding: 'br' | 'gzip') => Promise<Buffer>;
      /** Scripts of the site's integrations the page loads (its Content-Security-Policy names them). */
      scripts?: string[];
    }
  | { kind: 'file'; file: FileEntry; blob: OpenBlob; private: boolean }
  /** sitemap.xml, robots.txt, llms.txt, a page's markdown (`<page URL>.md`). */
  | {
      kind: 'text';
      status: number;
      contentType: string;
      body: string;
      private: boolean;
      noindex: boolean;
      keepToken?: string;
    }
  | { kind: 'json'; status: number; body: unknown; private: boolean; noindex: boolean; keepToken?: string }
  | { kind: 'redirect'; location: string };
