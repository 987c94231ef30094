import { useRef, useState } from 'react';
import type { InstalledIntegration, Integration } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ExternalIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { Markdown } from '../../../components/ui/markdown';
import { Card } from '../../../components/ui/page';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { useTargetChoices } from '../api/get-choices';
import { useInstalled, useIntegration } from '../api/get-integrations';
import {
  useInstall,
  useInstallation,
  useTargetChange,
  useTargets,
  useUninstall,
  useUpdateInstallation,
} from '../api/installations';
import { ConfigurationForm } from '../forms/configuration-form';
import { IntegrationBlock } from '../../../components/integrations/integration-block';
import { Dialog } from '../../../components/ui/dialog';
import { CATEGORY_LABELS, SCOPE_LABELS, TARGET_LABELS } from '../utils/labels';
import { IntegrationEvents } from './integration-events';
import { IntegrationIcon } from './integration-icon';
import { UnverifiedBadge } from './unverified-badge';
import '../integrations.css';

interface Props {
  organizationId: string;
  name: string;
  /** The caller administers the organization: installs, configures and uninstalls. */
  canInstall: boolean;
}

/** One integration: what it is and may do, and its installation on this organization (configuration, spaces, sites). */
export function IntegrationView({ organizationId, name, canInstall }: Props) {
  const integration = useIntegration(name);
  const installed = useInstalled(organizationId);
  if (integration.isPending || installed.isPending) return <Loading label="Loading the integration…" />;
  if (integration.isError) return <ErrorState error={integration.error} onRetry={() => void integration.refetch()} />;
  if (installed.isError) return <ErrorState error={installed.error} onRetry={() => void installed.refetch()} />;
  const installation = installed.data.find((i) => i.name === name);
  const data = integration.data;
  return (
    <div className="integration-view">
      <header className="integration-head">
        <IntegrationIcon integration={data} size={56} />
        <div>
          <h1 className="page-title">{data.title}</h1>
          <p className="page-description">{data.description}</p>
          {!data.verified && (
            <p className="integration-unverified">
              <UnverifiedBadge />{' '}
              {`Nobody has reviewed this integration's code: ${data.owner.title} publishes it. Install it only if you trust them with the access it asks for.`}
            </p>
          )}
          <p className="team-meta">
            By {data.owner.title} · version {data.version} ·{' '}
            {data.categories.map((c) => CATEGORY_LABELS[c]).join(', ') || 'Other'} · works on{' '}
            {TARGET_LABELS[data.target]}
          </p>
        </div>
        <div className="page-actions">
          {installation ? (
            <span className="badge badge-public">Installed</span>
          ) : (
            canInstall && <InstallButton organizationId={organizationId} integration={data} />
          )}
        </div>
      </header>
      {data.previewImages.length > 0 && (
        <ul className="integration-previews" aria-label="Previews">
          {data.previewImages.map((src, i) => (
            <li key={src}>
              <img src={src} alt={`${data.title}, preview ${i + 1}`} loading="lazy" />
            </li>
          ))}
        </ul>
      )}
      <div className="integration-columns">
        <div>
          {data.summary && (
            <Card title="About">
              <Markdown headingOffset={2}>{data.summary}</Markdown>
            </Card>
          )}
          {installation && (
            <Installation
              organizationId={organizationId}
              integration={data}
              installation={installation}
              canEdit={canInstall}
            />
          )}
          {data.permissions.admin && <IntegrationEvents name={name} />}
        </div>
        <aside>
          <Card title="It may">
            {data.scopes.length === 0 ? (
              <p className="section-text">Nothing beyond being installed: it asks for no permission.</p>
            ) : (
              <ul className="scope-list">
                {data.scopes.map((scope) => (
                  <li key={scope}>{SCOPE_LABELS[scope]}</li>
                ))}
              </ul>
            )}
          </Card>
          {data.externalLinks.length > 0 && (
            <Card title="Links">
              <ul className="scope-list">
                {data.externalLinks.map((link) => (
                  <li key={link.url}>
                    <a href={link.url} target="_blank" rel="noopener noreferrer nofollow">
                      {link.label} <ExternalIcon />
                    </a>
                  </li>
                ))}
              </ul>
            </Card>
          )}
        </aside>
      </div>
    </div>
  );
}

function InstallButton({ organizationId, integration }: { organizationId: string; integration: Integration }) {
  const install = useInstall(organizationId, integration.name);
  const toast = useToast();
  return (
    <Button
      variant="primary"
      disabled={install.isPending}
      onClick={() =>
        install.mutate(undefined, {
          onSuccess: () => toast.show(`“${integration.title}” installed: choose where it applies`),
          onError: (error) => toast.show(error.message, 'error'),
        })
      }
    >
      <PlusIcon /> Install
    </Button>
  );
}

function Installation({
  organizationId,
  integration,
  installation,
  canEdit,
}: {
  organizationId: string;
  integration: Integration;
  installation: InstalledIntegration;
  canEdit: boolean;
}) {
  const details = useInstallation(integration.name, installation.installation);
  const update = useUpdateInstallation(integration.name, installation.installation);
  const uninstall = useUninstall(integration.name);
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const toast = useToast();
  const account = integration.configurations?.account;
  const kinds = (['space', 'site'] as const).filter((k) => integration.target === 'all' || integration.target === k);
  return (
    <>
      <Card title="Configuration">
        {details.isPending ? (
          <Loading label="Loading the configuration…" />
        ) : details.isError ? (
          <ErrorState error={details.error} onRetry={() => void details.refetch()} />
        ) : account && 'componentId' in account ? (
          canEdit ? (
            // Its own settings screen, rendered by its script (ContentKit), which saves what is chosen itself.
            <IntegrationBlock
              integration={integration.name}
              block={account.componentId}
              props={{ installationId: installation.installation }}
              context={{ type: 'configuration_account', organizationId }}
              onComplete={() => {
                void details.refetch();
                toast.show('Configuration saved');
              }}
            />
          ) : (
            <p className="section-text">Only the organization’s admins configure it.</p>
          )
        ) : account && 'properties' in account ? (
          <ConfigurationForm
            schema={account}
            values={details.data.configuration}
            endpoint={details.data.urls?.publicEndpoint}
            readOnly={!canEdit}
            onSave={(configuration) => update.mutateAsync({ configuration })}
          />
        ) : (
          <p className="section-text">This integration has no organization-wide settings.</p>
        )}
      </Card>
      {kinds.map((kind) => (
        <Targets
          key={kind}
          organizationId={organizationId}
          integration={integration}
          installationId={installation.installation}
          kind={kind}
          canEdit={canEdit}
        />
      ))}
      {canEdit && (
        <div className="danger-zone">
          <Button ref={button} variant="danger" onClick={() => setConfirming(true)}>
            <TrashIcon /> Uninstall
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            returnFocusRef={button}
            title={`Uninstall “${integration.title}”?`}
            confirmLabel="Uninstall"
            action={async () => {
              await uninstall.mutateAsync(installation.installation);
              toast.show(`“${integration.title}” uninstalled`);
            }}
          >
            <p>
              It is removed from the organization and from every space and site it was installed on, with its settings.
            </p>
          </ConfirmDialog>
        </div>
      )}
    </>
  );
}

function Targets({
  organizationId,
  integration,
  installationId,
  kind,
  canEdit,
}: {
  organizationId: string;
  integration: Integration;
  installationId: string;
  kind: 'space' | 'site';
  canEdit: boolean;
}) {
  const targets = useTargets(integration.name, installationId, kind);
  const choices = useTargetChoices(organizationId, kind);
  const change = useTargetChange(integration.name, installationId, kind);
  const toast = useToast();
  const [adding, setAdding] = useState('');
  const installedIds = new Set(targets.data?.map((t) => (kind === 'space' ? t.space : t.site)) ?? []);
  const titleOf = (id: string) => choices.data?.find((c) => c.id === id)?.title ?? id;
  const available = choices.data?.filter((c) => !installedIds.has(c.id)) ?? [];
  const label = kind === 'space' ? 'Spaces' : 'Sites';
  // Settings of its own for each space or site (a ContentKit screen its script renders and saves).
  const screen = integration.configurations?.[kind];
  const settingsScreen = screen && 'componentId' in screen ? screen.componentId : undefined;
  const [configuring, setConfiguring] = useState<string>();
  return (
    <Card title={label}>
      {configuring && settingsScreen && (
        <Dialog
          open
          onOpenChange={(open) => !open && setConfiguring(undefined)}
          title={`${integration.title} on ${titleOf(configuring)}`}
        >
          <IntegrationBlock
            integration={integration.name}
            block={settingsScreen}
            props={{}}
            context={
              kind === 'space'
                ? { type: 'configuration_space', spaceId: configuring }
                : { type: 'configuration_site', siteId: configuring }
            }
            onComplete={() => {
              setConfiguring(undefined);
              toast.show('Settings saved');
            }}
          />
        </Dialog>
      )}
      {targets.isPending || choices.isPending ? (
        <Loading />
      ) : targets.isError ? (
        <ErrorState error={targets.error} onRetry={() => void targets.refetch()} />
      ) : (
        <>
          {targets.data.length === 0 ? (
            <EmptyState title={`On no ${kind} yet`}>
              {available.length > 0
                ? `Choose the ${kind}s it applies to.`
                : `The organization has no ${kind} yet: create one, then come back to install it there.`}
            </EmptyState>
          ) : (
            <ul className="target-list" aria-label={`${label} it is installed on`}>
              {targets.data.map((t) => {
                const id = (kind === 'space' ? t.space : t.site)!;
                return (
                  <li key={id}>
                    <span className="target-name">{titleOf(id)}</span>
                    {canEdit && settingsScreen && (
                      <Button size="sm" aria-label={`Settings for ${titleOf(id)}`} onClick={() => setConfiguring(id)}>
                        Settings
                      </Button>
                    )}
                    {canEdit && (
                      <Button
                        size="sm"
                        aria-label={`Remove from ${titleOf(id)}`}
                        disabled={change.isPending}
                        onClick={() =>
                          change.mutate(
                            { targetId: id, install: false },
                            { onError: (error) => toast.show(error.message, 'error') },
                          )
                        }
                      >
                        Remove
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {canEdit && available.length > 0 && (
            <form
              className="target-add"
              onSubmit={(event) => {
                event.preventDefault();
                if (!adding) return;
                change.mutate(
                  { targetId: adding, install: true },
                  {
                    onSuccess: () => {
                      toast.show(`Installed on ${titleOf(adding)}`);
                      setAdding('');
                    },
                    onError: (error) => toast.show(error.message, 'error'),
                  },
                );
              }}
            >
              <label className="field-label" htmlFor={`add-${kind}`}>
                Add a {kind}
              </label>
              <select
                id={`add-${kind}`}
                className="input select"
                value={adding}
                onChange={(e) => setAdding(e.target.value)}
              >
                <option value="">Choose a {kind}…</option>
                {available.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
              <Button type="submit" disabled={!adding || change.isPending}>
                Install on this {kind}
              </Button>
            </form>
          )}
        </>
      )}
    </Card>
  );
}
