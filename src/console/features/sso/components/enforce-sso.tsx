import { useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormError } from '../../../components/ui/states';
import { Switch } from '../../../components/ui/switch';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSamlProviders } from '../api/get-saml-providers';
import { useUpdateSsoEnforcement } from '../api/update-sso-enforcement';
import '../sso.css';

interface Props {
  organizationId: string;
  organizationTitle: string;
  /** The organization's `sso`. */
  enforced: boolean;
}

/**
 * "Enforce single sign-on": what it does, said plainly, and a switch; turning it on is confirmed first. Without a
 * provider it cannot be turned on (members other than admins would have no way in).
 */
export function EnforceSso({ organizationId, organizationTitle, enforced }: Props) {
  const id = useId();
  const providers = useSamlProviders(organizationId);
  const update = useUpdateSsoEnforcement(organizationId);
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const switchRef = useRef<HTMLButtonElement>(null);
  const noProvider = providers.isSuccess && providers.data.length === 0;
  const change = (next: boolean) => {
    if (next) return setConfirming(true);
    update.mutate(false, {
      onSuccess: () => toast.show('Single sign-on is no longer enforced'),
    });
  };
  return (
    <section className="card enforce-sso" aria-labelledby={`${id}-title`}>
      <div className="switch-row">
        <h2 id={`${id}-title`} className="section-title">
          <span id={`${id}-label`}>Enforce single sign-on</span>
          <span className={enforced ? 'badge badge-public' : 'badge'}>{enforced ? 'On' : 'Off'}</span>
        </h2>
        <Switch
          ref={switchRef}
          checked={enforced}
          onCheckedChange={change}
          busy={update.isPending}
          disabled={!enforced && (noProvider || !providers.isSuccess)}
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-description${noProvider && !enforced ? ` ${id}-hint` : ''}`}
        />
      </div>
      <p id={`${id}-description`} className="section-text">
        When on, members of {organizationTitle} other than admins reach it only by signing in through one of its
        identity providers. It changes nothing elsewhere: their password still signs them in, and their other
        organizations are not affected. Admins keep password access, as the way back in if the identity provider fails.
      </p>
      {noProvider && !enforced && (
        <p id={`${id}-hint`} className="field-hint">
          Add a SAML provider first: with none, members other than admins would have no way in.
        </p>
      )}
      <FormError message={update.isError && !confirming ? errorMessage(update.error) : undefined} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocusRef={switchRef}
        title="Enforce single sign-on?"
        confirmLabel="Enforce single sign-on"
        variant="primary"
        action={async () => {
          await update.mutateAsync(true);
          toast.show('Single sign-on is enforced');
        }}
      >
        <p>
          Members of <strong>{organizationTitle}</strong> other than admins will reach it only through one of its
          identity providers. Those signed in with their password are asked to sign in through a provider the next time
          they open it; they must have signed in through it before, or linked it to their account.
        </p>
        <p>Admins keep password access. Nothing changes for other organizations.</p>
      </ConfirmDialog>
    </section>
  );
}
