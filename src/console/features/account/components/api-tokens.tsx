import { useRef, useState } from 'react';
import type { ApiToken, CreatedToken } from '../../../../shared/contract';
import { TOKEN_LABEL_MAX } from '../../../../shared/contract';
import { Button, IconButton } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { TextField } from '../../../components/ui/field';
import { CloseIcon, KeyIcon, PlusIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, FormError, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateToken } from '../api/create-token';
import { createTokenBodySchema } from '../../../../shared/contract';
import { useTokens } from '../api/get-tokens';
import { useRevokeToken } from '../api/revoke-token';
import '../account.css';

/**
 * Lasting API tokens: create one with a label and the password typed again (its secret shows here once, to copy),
 * see when each was created and when and from where it was last used, revoke one after confirming.
 */
export function ApiTokens() {
  const tokens = useTokens();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <div className="section api-tokens">
      <CreateTokenForm onCreated={setCreated} />
      {created && <NewTokenNotice token={created} onDismiss={() => setCreated(null)} />}
      {tokens.isPending ? (
        <Loading label="Loading API tokens…" />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : tokens.data.length === 0 ? (
        <EmptyState icon={<KeyIcon width={28} height={28} />} title="No API token" level={3}>
          Create one to call the API from a script or another service.
        </EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="account-table" aria-label="API tokens">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <TokenRow key={token.id} token={token} onRevoked={() => created?.id === token.id && setCreated(null)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedToken) => void }) {
  const create = useCreateToken();
  const form = useZodForm(createTokenBodySchema, { defaultValues: { label: '', password: '' }, mode: 'onTouched' });
  const onSubmit = form.handleSubmit(async ({ label, password }) => {
    try {
      onCreated(await create.mutateAsync({ label, ...(password ? { password } : {}) }));
      form.reset();
    } catch (error) {
      showServerError(form, error, ['label', 'password']);
    }
  });
  return (
    <form className="form token-form" onSubmit={onSubmit} noValidate aria-label="Create an API token">
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextField
        control={form.control}
        name="label"
        label="Token label"
        hint="What it is for, to recognize it later (e.g. “CI deploy”)."
        max={TOKEN_LABEL_MAX}
      />
      <TextField
        control={form.control}
        name="password"
        label="Your password"
        type="password"
        autoComplete="current-password"
        hint="A token outlives this sign-in, so your password is asked again. Signed in through single sign-on only? Leave it empty: a token can be made within 10 minutes of signing in."
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          <PlusIcon /> Create token
        </Button>
      </div>
    </form>
  );
}

function NewTokenNotice({ token, onDismiss }: { token: CreatedToken; onDismiss: () => void }) {
  return (
    <div className="notice notice-success new-token" role="status">
      <div className="new-token-body">
        <p>
          <strong>{token.label}</strong> is created. Copy its secret now: it will not be shown again. Send it as{' '}
          <code>Authorization: Bearer …</code>.
        </p>
        <CopyField label="API token" value={token.token} />
      </div>
      <IconButton label="Dismiss: I have copied the token" className="notice-close" onClick={onDismiss}>
        <CloseIcon />
      </IconButton>
    </div>
  );
}

function TokenRow({ token, onRevoked }: { token: ApiToken; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const revoke = useRevokeToken();
  const toast = useToast();
  return (
    <tr>
      <th scope="row" className="account-table-name">
        {token.label}
      </th>
      <td>
        <RelativeTime value={token.createdAt} />
      </td>
      <td>
        {token.lastUsedAt ? <RelativeTime value={token.lastUsedAt} /> : 'Never'}
        {token.lastUsedFrom && (
          <span className="token-origin">
            {[token.lastUsedFrom.ip, token.lastUsedFrom.userAgent].filter(Boolean).join(' · ')}
          </span>
        )}
      </td>
      <td className="account-table-actions">
        <Button ref={button} size="sm" onClick={() => setConfirming(true)} aria-label={`Revoke ${token.label}`}>
          Revoke
        </Button>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          returnFocusRef={button}
          title={`Revoke ${token.label}?`}
          confirmLabel="Revoke token"
          action={async () => {
            await revoke.mutateAsync(token.id);
            onRevoked();
            toast.show(`${token.label} revoked`);
          }}
        >
          <p>
            Anything that uses this token will be refused from now on. This cannot be undone: create a new token if you
            need one again.
          </p>
        </ConfirmDialog>
      </td>
    </tr>
  );
}
