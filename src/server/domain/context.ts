import type { Db } from '../storage/db.js';
import type { Urls } from '../lib/urls.js';
import type { Actor } from './permissions/resolver.js';
import type { SpaceForUser } from '../storage/repos/spaces.js';

/**
 * The space a read request names, read by the statement that authenticated it (plugins/auth.ts): `found` is
 * undefined when there is no such space. loadSpace takes it once, in place of reading the space again.
 */
export interface PrefetchedSpace {
  spaceId: string;
  found: SpaceForUser | undefined;
  taken: boolean;
}

/** What a domain service needs for one authenticated request. */
export interface ServiceContext {
  db: Db;
  urls: Urls;
  actor: Actor;
  prefetched?: PrefetchedSpace;
}
