/** A space or a collection whose access is shown: `kind` is the path segment of the API. */
export interface AccessTarget {
  kind: 'spaces' | 'collections';
  id: string;
  organizationId: string;
}

export function targetPath(target: AccessTarget, rest = ''): string {
  return `/${target.kind}/${encodeURIComponent(target.id)}${rest}`;
}

/** "space" or "collection", for sentences. */
export function targetNoun(target: Pick<AccessTarget, 'kind'>): 'space' | 'collection' {
  return target.kind === 'spaces' ? 'space' : 'collection';
}
