/**
 * Live collaboration on a change request's page: the console's editors and the server share a Yjs document per
 * page over a WebSocket at COLLAB_PATH (the Hocuspocus protocol). A document is named by the change request's
 * space, number and page; its content is the editor's document in the Yjs fragment COLLAB_FIELD.
 */
export const COLLAB_PATH = '/v1/collab';
export const COLLAB_FIELD = 'default';
/** The stateless message the server sends an editor each time the change request's page was written from the document. */
export const COLLAB_WRITTEN = 'written';
/**
 * The start of the stateless message the server sends the editors when the page cannot be written from the document
 * (it is past a page's limits), followed by why. What was typed stays stored; the page is written once it can be.
 */
export const COLLAB_NOT_WRITTEN = 'not-written:';

export function collabDocumentName(spaceId: string, number: number, pageId: string): string {
  return `${spaceId}/${number}/${pageId}`;
}

/** A document name's parts, or undefined when it is not one. */
export function parseCollabDocumentName(name: string): { spaceId: string; number: number; pageId: string } | undefined {
  const match = /^([A-Za-z0-9_-]{1,64})\/([1-9][0-9]{0,8})\/([A-Za-z0-9_-]{1,64})$/.exec(name);
  if (!match) return undefined;
  return { spaceId: match[1]!, number: Number(match[2]), pageId: match[3]! };
}
