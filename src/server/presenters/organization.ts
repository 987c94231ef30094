import type { Organization, InviteLink } from '../../shared/contract/organizations.js';
import type { Role } from '../../shared/contract/common.js';
import type { OrganizationRow, InviteLinkRow } from '../storage/repos/organizations.js';
import { asRole, atLeast } from '../domain/permissions/roles.js';
import { organizationPermissions } from '../domain/organizations/policy.js';
import type { Urls } from '../lib/urls.js';

/** `role` is the caller's role in the organization (null for a guest). */
export function presentOrganization(urls: Urls, row: OrganizationRow, role: Role | null): Organization {
  return {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: JSON.parse(row.email_domains) as string[],
    ...(row.hostname ? { hostname: row.hostname } : {}),
    type: row.type,
    defaultRole: asRole(row.default_role),
    ...(row.default_content_site ? { defaultContent: { type: 'site' as const, site: row.default_content_site } } : {}),
    sso: row.sso === 1,
    ai: row.ai === 1,
    inviteLinks: row.invite_links === 1,
    plan: row.plan,
    mergeRules: { type: 'none' },
    trial: { status: 'notapplicable' },
    urls: {
      location: urls.api(`/orgs/${row.id}`),
      app: urls.app(`/o/${row.id}`),
      ...(row.logo ? { logo: row.logo } : {}),
    },
    permissions: organizationPermissions(role),
  };
}

export function presentInviteLink(row: InviteLinkRow, callerRole: Role | null): InviteLink {
  const role = asRole(row.role);
  return {
    object: 'invite',
    id: row.id,
    role,
    // Redundant when the caller already has at least the role the link grants.
    redundant: callerRole !== null && (role === null || atLeast(callerRole, role)),
  };
}
