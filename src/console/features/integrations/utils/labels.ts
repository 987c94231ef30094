import type { Integration, IntegrationScope } from '../../../../shared/contract';

export const CATEGORY_LABELS: Record<Integration['categories'][number], string> = {
  analytics: 'Analytics',
  collaboration: 'Collaboration',
  content: 'Content',
  gitsync: 'Git sync',
  marketing: 'Marketing',
  'visitor-auth': 'Visitor authentication',
  other: 'Other',
};

export const TARGET_LABELS: Record<Integration['target'], string> = {
  all: 'Spaces, sites and organizations',
  space: 'Spaces',
  site: 'Sites',
  organization: 'Organizations',
};

/** What each permission lets the integration do, in words. */
export const SCOPE_LABELS: Record<IntegrationScope, string> = {
  'space:content:read': 'Read the content of the spaces it is installed on',
  'space:content:write': 'Open and edit change requests in the spaces it is installed on (merging stays with people)',
  'space:metadata:read': 'Read the title, settings and members of those spaces',
  'space:metadata:write': 'Change the title and emoji of those spaces',
  'space:git:sync': 'Synchronize those spaces with a Git repository',
  'page:feedback:read': "Read readers' feedback on pages",
  'site:metadata:read': 'Read the settings of the sites it is installed on',
  'site:views:read': 'Read page views of those sites',
  'site:script:inject': 'Add a script to the pages of those sites',
  'site:script:cookies': 'Set cookies on the visitors of those sites',
  'site:visitor:auth': 'Sign visitors in to those sites',
  'site:visitor:claims': "Read the claims of those sites' visitors",
  'site:adaptive:read': "Read those sites' adaptive content settings",
  'site:adaptive:write': "Change those sites' adaptive content settings",
  'conversations:ingest': 'Send conversations for analysis',
  'openapi:read': "Read the organization's OpenAPI specifications",
  'openapi:write': "Publish the organization's OpenAPI specifications",
};
