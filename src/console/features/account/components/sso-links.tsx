import { useId, useRef, useState } from 'react';
import type { SsoLink } from '../../../../shared/contract';
import { Button, IconButton } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CheckIcon, CloseIcon, KeyIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { useSsoLinks } from '../api/get-sso-links';
import { useUnlinkSsoProvider } from '../api/unlink-sso-provider';
import '../account.css';

interface Props {
  /** The provider just linked (`?linked=<providerId>`, where the server sends the browser back): said so at the top. */
  linked?: string;
  onDismissLinked: () => void;
}

/** The identity providers that sign in this account: each with its organization and the identity it asserts. */
export function SsoLinks({ linked, onDismissLinked }: Props) {
  const links = useSsoLinks();
  const just = linked ? links.data?.find((link) => link.provider.id === linked) : undefined;
  return (
    <div className="section">
      {linked && (
        <div className="notice notice-success" role="status">
          <CheckIcon />
          <p>
            {just ? (
              <>
                <strong>{just.provider.label}</strong> is linked: you can now sign in to {just.organization.title}{' '}
                through it, as {just.subject}.
              </>
            ) : (
              'The provider is linked: you can now sign in through it.'
            )}
          </p>
          <IconButton label="Dismiss" className="notice-close" onClick={onDismissLinked}>
            <CloseIcon />
          </IconButton>
        </div>
      )}
      {links.isPending ? (
        <Loading label="Loading linked providers…" />
      ) : links.isError ? (
        <ErrorState error={links.error} onRetry={() => void links.refetch()} />
      ) : links.data.length === 0 ? (
        <EmptyState icon={<KeyIcon width={28} height={28} />} title="No linked provider" level={3}>
          You sign in with your e-mail and password. Link an identity provider of your organizations to sign in through
          it too.
        </EmptyState>
      ) : (
        <ul className="sso-link-list" aria-label="Linked providers">
          {links.data.map((link) => (
            <SsoLinkItem key={link.provider.id} link={link} highlighted={link.provider.id === linked} />
          ))}
        </ul>
      )}
    </div>
  );
}

function SsoLinkItem({ link, highlighted }: { link: SsoLink; highlighted: boolean }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const unlink = useUnlinkSsoProvider();
  const toast = useToast();
  const created = link.kind === 'created';
  return (
    <li className={`sso-link${highlighted ? ' sso-link-new' : ''}`} aria-labelledby={`${id}-title`}>
      <div className="sso-link-text">
        <span className="sso-link-head">
          <span id={`${id}-title`} className="sso-link-title">
            {link.provider.label}
          </span>
          <span className={created ? 'badge badge-warning' : 'badge'}>
            {created ? 'Created your account' : 'Linked'}
          </span>
        </span>
        <dl className="sso-link-facts">
          <dt>Organization</dt>
          <dd>{link.organization.title}</dd>
          <dt>Signs in as</dt>
          <dd className="sso-link-subject">{link.subject}</dd>
          <dt>{created ? 'Since' : 'Linked'}</dt>
          <dd>
            <RelativeTime value={link.createdAt} />
          </dd>
        </dl>
        {created && (
          <p className="field-hint">
            This provider created your account on your first sign-in through it. While your account has no password, it
            is your only way in and cannot be unlinked.
          </p>
        )}
      </div>
      <Button ref={button} size="sm" onClick={() => setConfirming(true)} aria-label={`Unlink ${link.provider.label}`}>
        Unlink
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocusRef={button}
        title={`Unlink ${link.provider.label}?`}
        confirmLabel="Unlink provider"
        action={async () => {
          await unlink.mutateAsync(link);
          toast.show(`${link.provider.label} unlinked`);
        }}
      >
        <p>
          You will no longer sign in through <strong>{link.provider.label}</strong> as {link.subject}. If{' '}
          {link.organization.title} enforces single sign-on, you will need it, or another of its providers, to reach
          that organization again.
        </p>
        {created && <p>It created your account: the server refuses while your account has no password.</p>}
      </ConfirmDialog>
    </li>
  );
}
