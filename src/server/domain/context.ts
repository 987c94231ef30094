import type { Db } from '../storage/db.js';
import type { Urls } from '../presenters/urls.js';
import type { Actor } from './permissions/resolver.js';

/** What a domain service needs for one authenticated request. */
export interface ServiceContext {
  db: Db;
  urls: Urls;
  actor: Actor;
}
