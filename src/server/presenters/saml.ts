import type { SamlProvider } from '../../shared/contract/saml.js';
import type { SamlProviderRow } from '../storage/repos/saml.js';
import type { TeamView } from '../storage/repos/teams.js';
import { asRole } from '../domain/permissions/roles.js';
import { serviceEndpoints } from '../domain/sso/service.js';
import { presentTeam } from './team.js';
import type { Urls } from '../lib/urls.js';

/** Providers are only shown to organization admins. */
export function presentSamlProvider(urls: Urls, view: { row: SamlProviderRow; team?: TeamView }): SamlProvider {
  const { row, team } = view;
  return {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url,
    entityID: row.idp_entity_id,
    certificate: row.certificate,
    ...(team ? { defaultTeam: presentTeam(team, 'admin') } : {}),
    defaultRole: asRole(row.default_role),
    createdAt: row.created_at,
    status: row.status,
    service: serviceEndpoints(urls, row.id),
    urls: { location: urls.api(`/orgs/${row.organization_id}/saml/${row.id}`) },
  };
}
