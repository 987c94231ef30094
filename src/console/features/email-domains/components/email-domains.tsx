import { useId, useRef, useState } from 'react';
import type { EmailDomainEntry } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { TextField } from '../../../components/ui/field';
import { CheckIcon, GlobeIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, FormError, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useAddEmailDomain } from '../api/add-email-domain';
import { addEmailDomainBodySchema } from '../../../../shared/contract';
import { useEmailDomains } from '../api/get-email-domains';
import { useRemoveEmailDomain } from '../api/remove-email-domain';
import { useVerifyEmailDomain } from '../api/verify-email-domain';
import type { VerifyMethod } from '../api/verify-email-domain';
import { sortDomains, verifiedHow } from '../utils/labels';
import '../email-domains.css';

/** The organization's e-mail domains (admins): add, prove control by DNS (or the instance owner's word), remove. */
export function EmailDomains({ organizationId }: { organizationId: string }) {
  const domains = useEmailDomains(organizationId);
  return (
    <div className="section">
      <p className="section-text">
        A <strong>verified</strong> domain lets this organization's identity providers create accounts for addresses at
        that domain on their first sign-in, and the sign-in page offers its providers to people who type such an
        address. Prove you control a domain by publishing a DNS TXT record; the instance owner can verify a domain
        without one.
      </p>
      <AddDomainForm organizationId={organizationId} />
      {domains.isPending ? (
        <Loading label="Loading e-mail domains…" />
      ) : domains.isError ? (
        <ErrorState error={domains.error} onRetry={() => void domains.refetch()} />
      ) : domains.data.length === 0 ? (
        <EmptyState icon={<GlobeIcon width={28} height={28} />} title="No e-mail domain yet">
          Add the domain of your people's work addresses, such as example.com.
        </EmptyState>
      ) : (
        <ul className="domain-list" aria-label="E-mail domains">
          {sortDomains(domains.data).map((entry) => (
            <DomainItem key={entry.domain} organizationId={organizationId} entry={entry} />
          ))}
        </ul>
      )}
    </div>
  );
}

function AddDomainForm({ organizationId }: { organizationId: string }) {
  const form = useZodForm(addEmailDomainBodySchema, { defaultValues: { domain: '' }, mode: 'onSubmit' });
  const add = useAddEmailDomain(organizationId);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const entry = await add.mutateAsync(values);
      toast.show(entry.verified ? `${entry.domain} is verified already` : `${entry.domain} added: verify it next`);
      form.reset({ domain: '' });
    } catch (error) {
      showServerError(form, error, ['domain']);
    }
  });
  return (
    <form className="card invite-form" onSubmit={onSubmit} noValidate aria-label="Add an e-mail domain">
      <FormError message={form.formState.errors.root?.server?.message} />
      <div className="inline-form">
        <TextField
          control={form.control}
          name="domain"
          label="Domain"
          placeholder="example.com"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="none"
        />
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          <PlusIcon /> Add domain
        </Button>
      </div>
    </form>
  );
}

function DomainItem({ organizationId, entry }: { organizationId: string; entry: EmailDomainEntry }) {
  const id = useId();
  const verify = useVerifyEmailDomain(organizationId);
  const remove = useRemoveEmailDomain(organizationId);
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const running = verify.isPending ? verify.variables.method : undefined;
  const run = (method: VerifyMethod) =>
    verify.mutate(
      { domain: entry.domain, method },
      { onSuccess: (verified) => verified.verified && toast.show(`${entry.domain} is verified`) },
    );
  return (
    <li className="card domain-item" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h3 id={`${id}-title`} className="section-title domain-name">
          {entry.domain}
          {entry.verified ? (
            <span className="badge badge-public">
              <CheckIcon width={12} height={12} /> Verified
            </span>
          ) : (
            <span className="badge badge-warning">Unverified</span>
          )}
        </h3>
        <div className="page-actions">
          {!entry.verified && (
            <Button
              size="sm"
              variant="primary"
              loading={running === 'dns'}
              disabled={!!running}
              onClick={() => run('dns')}
              aria-label={`Verify ${entry.domain}`}
            >
              Verify
            </Button>
          )}
          <Button
            ref={removeButton}
            size="sm"
            variant="danger"
            onClick={() => setConfirming(true)}
            aria-label={`Remove ${entry.domain}`}
          >
            <TrashIcon /> Remove
          </Button>
        </div>
      </div>
      {entry.verified ? (
        <p className="field-hint">
          Verified, {verifiedHow(entry)}
          {entry.verifiedAt && (
            <>
              , <RelativeTime value={entry.verifiedAt} />
            </>
          )}
          .
        </p>
      ) : (
        <div className="domain-challenge">
          <p className="field-hint">
            Publish this <strong>TXT</strong> record in the DNS of {entry.domain}, then choose Verify. DNS changes can
            take a while to show.
          </p>
          <CopyField label="TXT record name" value={entry.challenge.name} />
          <CopyField label="TXT record value" value={entry.challenge.value} />
          <FormError message={verify.isError ? errorMessage(verify.error) : undefined} />
          <p className="field-hint domain-owner">
            Running this server?{' '}
            <Button
              size="sm"
              variant="ghost"
              loading={running === 'owner'}
              disabled={!!running}
              onClick={() => run('owner')}
            >
              Verify as instance owner
            </Button>
          </p>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocusRef={removeButton}
        title={`Remove ${entry.domain}?`}
        confirmLabel="Remove domain"
        action={async () => {
          await remove.mutateAsync(entry);
          toast.show(`${entry.domain} removed`);
        }}
      >
        <p>
          This organization's identity providers will no longer create accounts for addresses at{' '}
          <strong>{entry.domain}</strong>, and the sign-in page will no longer offer them for it. Accounts created
          already stay. Added again, the domain has to be verified again.
        </p>
      </ConfirmDialog>
    </li>
  );
}
