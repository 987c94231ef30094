import type { Role } from '../../../shared/contract/common.js';
import type { Organization } from '../../../shared/contract/organizations.js';
import { definePolicy } from '../permissions/policy.js';

/**
 * Who may do what in an organization, by their role in it (null: a guest; outsiders never get this far, they
 * get 404). The organization's `permissions` flags and the organization-wide checks of the services (settings,
 * invitations, domains, members, content at the top level, transfers, integrations) ask this table.
 * `listTeams` is whether the caller sees all of the organization's teams: without it (guests), the team list
 * answers with only the teams they are in.
 */
export const organizationPolicy = definePolicy({
  admin: 'admin',
  createContent: 'create',
  createOpenAPISpec: 'create',
  ingestConversations: 'admin',
  viewBilling: 'admin',
  listMembers: 'read',
  listTeams: 'read',
  listIntegrations: 'read',
  listInstallations: 'admin',
  installIntegration: 'admin',
});

export type OrganizationAction = keyof typeof organizationPolicy.rules;

/** The `permissions` of an organization as a caller with `role` sees it. */
export function organizationPermissions(role: Role | null): Organization['permissions'] {
  const may = organizationPolicy.flags(role);
  return {
    view: true,
    admin: may.admin,
    ownTeam: false,
    createContent: may.createContent,
    createOpenAPISpec: may.createOpenAPISpec,
    ingestConversations: may.ingestConversations,
    viewBilling: may.viewBilling,
    listMembers: may.listMembers,
    listTeams: may.listTeams,
    listIntegrations: may.listIntegrations,
    listInstallations: may.listInstallations,
    installIntegration: may.installIntegration,
  };
}
