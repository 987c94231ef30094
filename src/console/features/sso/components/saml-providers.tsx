import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import type { SamlProvider } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { EditIcon, KeyIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { roleLabel } from '../../../lib/roles';
import { useDeleteSamlProvider } from '../api/delete-saml-provider';
import { useSamlProviders } from '../api/get-saml-providers';
import { SamlProviderDialog } from '../forms/saml-provider-dialog';
import '../sso.css';

/** The organization's SAML identity providers, with what to enter on the identity provider's side. */
export function SamlProviders({ organizationId }: { organizationId: string }) {
  const providers = useSamlProviders(organizationId);
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  return (
    <div className="section">
      <div className="section-header">
        <p className="section-text">
          People sign in through your identity provider (Okta, Entra ID, Google Workspace…) with SAML 2.0. On a first
          sign-in it creates accounts for addresses of the organization's{' '}
          <Link to="/o/$organizationId/settings/domains" params={{ organizationId }}>
            verified e-mail domains
          </Link>
          , which join with the provider's role and team; people who have an account already link the provider from
          their account settings.
        </p>
        <Button ref={addButton} variant="primary" onClick={() => setAdding(true)}>
          <PlusIcon /> New SAML provider
        </Button>
      </div>
      {providers.isPending ? (
        <Loading label="Loading providers…" />
      ) : providers.isError ? (
        <ErrorState error={providers.error} onRetry={() => void providers.refetch()} />
      ) : providers.data.length === 0 ? (
        <EmptyState icon={<KeyIcon width={28} height={28} />} title="No single sign-on yet">
          Add your identity provider to let people sign in with it.
        </EmptyState>
      ) : (
        <ul className="invite-list" aria-label="SAML providers">
          {providers.data.map((provider) => (
            <ProviderItem key={provider.id} organizationId={organizationId} provider={provider} />
          ))}
        </ul>
      )}
      <SamlProviderDialog
        organizationId={organizationId}
        open={adding}
        onOpenChange={setAdding}
        returnFocusRef={addButton}
        onSaved={() => setAdding(false)}
      />
    </div>
  );
}

function ProviderItem({ organizationId, provider }: { organizationId: string; provider: SamlProvider }) {
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const remove = useDeleteSamlProvider(organizationId);
  const toast = useToast();
  const headingId = `saml-${provider.id}`;
  return (
    <li className="card saml-provider" aria-labelledby={headingId}>
      <div className="section-header">
        <h2 id={headingId} className="section-title">
          {provider.label}
          <span className={provider.status === 'active' ? 'badge badge-public' : 'badge badge-warning'}>
            {provider.status === 'active' ? 'Active' : 'Pending: nobody signed in yet'}
          </span>
        </h2>
        <div className="page-actions">
          <Button ref={editButton} size="sm" onClick={() => setDialog('edit')} aria-label={`Edit ${provider.label}`}>
            <EditIcon /> Edit
          </Button>
          <Button
            ref={deleteButton}
            size="sm"
            variant="danger"
            onClick={() => setDialog('delete')}
            aria-label={`Delete ${provider.label}`}
          >
            <TrashIcon /> Delete
          </Button>
        </div>
      </div>
      <dl className="member-facts saml-facts">
        <dt>Identity provider</dt>
        <dd>{provider.entityID}</dd>
        <dt>Sign-in URL</dt>
        <dd>{provider.ssoURL}</dd>
        <dt>People join as</dt>
        <dd>
          {roleLabel(provider.defaultRole)}
          {provider.defaultTeam && <>, in the team “{provider.defaultTeam.title}”</>}
        </dd>
      </dl>
      <div className="saml-service">
        <p className="field-hint">Enter these in your identity provider:</p>
        <CopyField label="ACS URL (reply URL)" value={provider.service.acsURL} />
        <CopyField label="Entity id (audience)" value={provider.service.entityID} />
        <CopyField label="Start URL (sign-in link)" value={provider.service.startURL} />
      </div>
      <SamlProviderDialog
        organizationId={organizationId}
        provider={provider}
        open={dialog === 'edit'}
        onOpenChange={(open) => setDialog(open ? 'edit' : null)}
        returnFocusRef={editButton}
        onSaved={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        returnFocusRef={deleteButton}
        title="Delete SAML provider?"
        confirmLabel="Delete provider"
        action={async () => {
          await remove.mutateAsync(provider);
          toast.show(`“${provider.label}” deleted`);
        }}
      >
        <p>
          Nobody can sign in through <strong>{provider.label}</strong> any more. People who joined through it stay
          members of the organization.
        </p>
      </ConfirmDialog>
    </li>
  );
}
