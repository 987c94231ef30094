import type {
  ContentInstallation,
  Installation,
  Integration,
  IntegrationEvent,
} from '../../shared/contract/integrations.js';
import type { OrganizationRow } from '../storage/repos/organizations.js';
import type { EventRow, InstallationRow, IntegrationRow, TargetRow } from '../storage/repos/integrations.js';
import { presentOrganization } from './organization.js';
import type { Urls } from '../lib/urls.js';
import { integrationPermissions } from '../domain/integrations/policy.js';

const parse = <T>(json: string | null, fallback: T): T => (json ? (JSON.parse(json) as T) : fallback);

export function integrationUrls(urls: Urls, name: string) {
  const base = urls.api(`/integrations/${encodeURIComponent(name)}`);
  // Its HTTP endpoint, on the integrations' origin (routes/integration-endpoints.ts); without one, its script.
  const publicEndpoint = urls.integrations
    ? `${urls.integrations}/v1/integrations/${encodeURIComponent(name)}`
    : `${base}/public`;
  return { location: base, assets: `${base}/assets`, publicEndpoint };
}

/** The owner is shown as a guest would see it: its public fields only, permissions false. */
export function presentIntegration(
  urls: Urls,
  row: IntegrationRow,
  owner: OrganizationRow,
  admin: boolean,
): Integration {
  const u = integrationUrls(urls, row.name);
  const previews = parse<string[]>(row.preview_asset_ids, []);
  return {
    object: 'integration',
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    ...(row.summary ? { summary: row.summary } : {}),
    previewImages: previews.map((id) => `${u.assets}/${id}`),
    target: row.target as Integration['target'],
    verified: false,
    visibility: row.visibility as Integration['visibility'],
    scopes: parse(row.scopes, []),
    categories: parse(row.categories, []),
    ...(row.blocks ? { blocks: parse(row.blocks, []) } : {}),
    ...(row.content_sources ? { contentSources: parse(row.content_sources, []) } : {}),
    ...(row.configurations ? { configurations: parse(row.configurations, {}) } : {}),
    externalLinks: parse(row.external_links, []),
    owner: presentOrganization(urls, owner, null),
    ...(row.content_security_policy ? { contentSecurityPolicy: row.content_security_policy } : {}),
    permissions: integrationPermissions(admin),
    urls: {
      location: u.location,
      app: urls.app(`/integrations/${encodeURIComponent(row.name)}`),
      assets: u.assets,
      ...(row.icon_asset_id ? { icon: `${u.assets}/${row.icon_asset_id}` } : {}),
      publicEndpoint: u.publicEndpoint,
      publicContentEndpoint: u.publicEndpoint,
    },
  };
}

export function presentInstallation(urls: Urls, row: InstallationRow, spaces: number): Installation {
  const base = urls.api(`/integrations/${encodeURIComponent(row.integration_name)}/installations/${row.id}`);
  return {
    id: row.id,
    status: row.status as Installation['status'],
    space_selection: row.space_selection as Installation['space_selection'],
    site_selection: row.site_selection as Installation['site_selection'],
    spaces,
    configuration: parse(row.configuration, {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    externalIds: parse(row.external_ids, []),
    target: { organization: row.organization_id },
    urls: {
      location: base,
      app: urls.app(`/o/${row.organization_id}/integrations/${encodeURIComponent(row.integration_name)}`),
      publicEndpoint: `${integrationUrls(urls, row.integration_name).publicEndpoint}/installations/${row.id}`,
    },
  };
}

export function presentTarget(urls: Urls, integration: string, row: TargetRow): ContentInstallation {
  const base = urls.api(
    `/integrations/${encodeURIComponent(integration)}/installations/${row.installation_id}/${row.kind}s/${row.target_id}`,
  );
  return {
    integration,
    installation: row.installation_id,
    status: row.status as ContentInstallation['status'],
    configuration: parse(row.configuration, {}),
    externalIds: parse(row.external_ids, []),
    urls: {
      location: base,
      publicEndpoint: `${integrationUrls(urls, integration).publicEndpoint}/installations/${row.installation_id}/${row.kind}s/${row.target_id}`,
    },
    ...(row.kind === 'space' ? { space: row.target_id } : { site: row.target_id }),
  };
}

export function presentEvent(row: EventRow): IntegrationEvent {
  return {
    id: row.id,
    integrationId: row.integration_name,
    ...(row.installation_id ? { installationId: row.installation_id } : {}),
    createdAt: row.created_at,
    payload: JSON.parse(row.payload) as IntegrationEvent['payload'],
    // GitBook knows two outcomes: an event the script does not handle (406) was delivered all the same.
    status: row.status === 'failed' ? 'failed' : 'success',
    ...(row.duration_ms !== null ? { durationMs: row.duration_ms } : {}),
    attempts: row.attempts,
  };
}

/** What the script logged while handling the event (the CLI's `gitbook tail` prints it), and why it failed. */
export function presentTrace(row: EventRow): Array<{ level: string; message: string }> {
  const logs = row.trace ? (JSON.parse(row.trace) as Array<{ level: string; message: string }>) : [];
  return row.error ? [...logs, { level: 'error', message: row.error }] : logs;
}
