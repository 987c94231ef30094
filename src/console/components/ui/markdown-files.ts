import { createContext } from 'react';

/**
 * Where the files a page body names (`/files/<id>`, as the published site reads them) are downloaded from: the
 * files URL of a revision holding them (`/v1/spaces/{spaceId}/revisions/{revisionId}/files`). Without it, such
 * links are left as written.
 */
export const MarkdownFilesContext = createContext<string | undefined>(undefined);

/** The files URL of a revision of a space, for MarkdownFilesContext. */
export function revisionFilesUrl(spaceId: string, revisionId: string): string {
  return `/v1/spaces/${encodeURIComponent(spaceId)}/revisions/${encodeURIComponent(revisionId)}/files`;
}

/** The space whose revision's files `filesUrl` (of revisionFilesUrl) names, if it names one. */
export function spaceOfFiles(filesUrl: string | undefined): string | undefined {
  const id = /^\/v1\/spaces\/([^/]+)\//.exec(filesUrl ?? '')?.[1];
  return id === undefined ? undefined : decodeURIComponent(id);
}

const FILE_LINK = /^\/?files\/([A-Za-z0-9_-]{1,64})$/;

/** A link or image target of a page body: `/files/<id>` becomes the file's download URL under `filesUrl`. */
export function fileTarget(url: string, filesUrl: string | undefined): string | undefined {
  const match = filesUrl ? FILE_LINK.exec(url) : null;
  return match ? `${filesUrl}/${match[1]}/download` : undefined;
}
