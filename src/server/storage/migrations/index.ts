import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-foundation.js';
import * as m002 from './002-sessions.js';
import * as m003 from './003-content.js';
import * as m004 from './004-reviews.js';
import * as m005 from './005-comments.js';
import * as m006 from './006-sites.js';
import * as m007 from './007-people.js';
import * as m008 from './008-identity.js';
import * as m009 from './009-member-search.js';
import * as m010 from './010-search.js';
import * as m011 from './011-links.js';
import * as m012 from './012-imports.js';
import * as m013 from './013-thread-versions.js';
import * as m014 from './014-customization.js';
import * as m015 from './015-openapi.js';
import * as m016 from './016-integrations.js';
import * as m017 from './017-review-requested-by.js';
import * as m018 from './018-account.js';
import * as m019 from './019-saml-binding.js';
import * as m020 from './020-domain-checks.js';
import * as m021 from './021-search-sections.js';
import * as m022 from './022-github-anchors.js';
import * as m023 from './023-import-skipped.js';
import * as m024 from './024-blob-chunks.js';
import * as m025 from './025-import-jobs.js';
import * as m026 from './026-search-includes.js';
import * as m027 from './027-link-anchors-and-includes.js';
import * as m028 from './028-site-redirects.js';
import * as m029 from './029-collab.js';
import * as m030 from './030-git-sync.js';
import * as m031 from './031-git-sync-redirects.js';
import * as m032 from './032-outbox.js';
import * as m033 from './033-account-tokens.js';
import * as m034 from './034-email-verification.js';
import * as m035 from './035-invitations.js';
import * as m036 from './036-notifications.js';
import * as m037 from './037-email-bounces.js';
import * as m038 from './038-integration-delivery.js';
import * as m039 from './039-integration-tokens.js';
import * as m040 from './040-integration-accounts.js';

/** Every migration, in order. Append only; never edit one that has shipped. */
const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-sessions': m002,
  '003-content': m003,
  '004-reviews': m004,
  '005-comments': m005,
  '006-sites': m006,
  '007-people': m007,
  '008-identity': m008,
  '009-member-search': m009,
  '010-search': m010,
  '011-links': m011,
  '012-imports': m012,
  '013-thread-versions': m013,
  '014-customization': m014,
  '015-openapi': m015,
  '016-integrations': m016,
  '017-review-requested-by': m017,
  '018-account': m018,
  '019-saml-binding': m019,
  '020-domain-checks': m020,
  '021-search-sections': m021,
  '022-github-anchors': m022,
  '023-import-skipped': m023,
  '024-blob-chunks': m024,
  '025-import-jobs': m025,
  '026-search-includes': m026,
  '027-link-anchors-and-includes': m027,
  '028-site-redirects': m028,
  '029-collab': m029,
  '030-git-sync': m030,
  '031-git-sync-redirects': m031,
  '032-outbox': m032,
  '033-account-tokens': m033,
  '034-email-verification': m034,
  '035-invitations': m035,
  '036-notifications': m036,
  '037-email-bounces': m037,
  '038-integration-delivery': m038,
  '039-integration-tokens': m039,
  '040-integration-accounts': m040,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
