import type { InvitationRow } from '../storage/repos/invitations.js';
import type { OrgDomainRow } from '../storage/repos/domains.js';
import type { OrgInvitation, UserInvitation, EmailDomainEntry, SsoLink } from '../../shared/contract/identity.js';
import { asRole } from '../domain/permissions/roles.js';
import { challenge } from '../domain/organizations/domains.js';

export function presentOrgInvitation(row: InvitationRow, now = new Date().toISOString()): OrgInvitation {
  return {
    object: 'invitation',
    id: row.id,
    email: row.email,
    role: asRole(row.role),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    expired: row.expires_at <= now,
    ...(row.last_sent_at ? { lastSentAt: row.last_sent_at } : {}),
    sends: row.sends,
  };
}

export function presentUserInvitation(
  row: InvitationRow & { organization_title: string; inviter_name: string | null },
): UserInvitation {
  return {
    object: 'invitation',
    id: row.id,
    role: asRole(row.role),
    organization: { id: row.organization_id, title: row.organization_title },
    ...(row.inviter_name !== null ? { invitedBy: { displayName: row.inviter_name } } : {}),
    createdAt: row.created_at,
  };
}

export function presentEmailDomain(row: OrgDomainRow): EmailDomainEntry {
  return {
    object: 'email-domain',
    domain: row.domain,
    verified: row.verified_at !== null,
    ...(row.verified_at ? { verifiedAt: row.verified_at } : {}),
    ...(row.verified_by ? { verifiedBy: row.verified_by } : {}),
    challenge: challenge(row),
    createdAt: row.created_at,
  };
}

export function presentSsoLink(row: {
  provider_id: string;
  organization_id: string;
  subject: string;
  kind: 'created' | 'linked';
  created_at: string;
  label: string;
  organization_title: string;
}): SsoLink {
  return {
    object: 'sso-link',
    provider: { id: row.provider_id, label: row.label },
    organization: { id: row.organization_id, title: row.organization_title },
    subject: row.subject,
    kind: row.kind,
    createdAt: row.created_at,
  };
}
