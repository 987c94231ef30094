import { useId, useState } from 'react';
import { VISITOR_KEY_MAX } from '../../../../shared/contract';
import type { UpdatePublishingAuthBody } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import { TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { changedFields, showServerError, useZodForm } from '../../../lib/form';
import { emptyAsUndefined } from '../../../lib/form-schemas';
import { usePublishingAuth } from '../api/get-publishing-auth';
import { useRegeneratePublishingAuth } from '../api/regenerate-publishing-auth';
import { useUpdatePublishingAuth } from '../api/update-publishing-auth';
import { updatePublishingAuthBodySchema } from '../../../../shared/contract';
import type { SiteRef } from '../utils/paths';
import '../sites.css';

const { privateKey, fallbackURL } = updatePublishingAuthBodySchema.shape;
const visitorAuthFormSchema = updatePublishingAuthBodySchema.extend({
  privateKey: emptyAsUndefined(privateKey.unwrap()),
  fallbackURL: emptyAsUndefined(fallbackURL.unwrap().unwrap()),
});

/**
 * The key visitor tokens (HS256 JWTs) are signed with: shown on demand, copied, regenerated or set by hand; and
 * where visitors without a valid token are sent.
 */
export function VisitorAuthForm({ site }: { site: SiteRef }) {
  const auth = usePublishingAuth(site);
  const id = useId();
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const regenerate = useRegeneratePublishingAuth(site);
  const update = useUpdatePublishingAuth(site);
  const toast = useToast();
  const form = useZodForm(visitorAuthFormSchema, {
    defaultValues: { privateKey: '', fallbackURL: auth.fallbackURL ?? '' },
  });
  const { isDirty, isSubmitting, errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    // An emptied key field keeps the key: only a new key replaces it.
    const { privateKey, ...rest } = changedFields(form, values, ['fallbackURL']) ?? {};
    const body: UpdatePublishingAuthBody = privateKey ? { ...rest, privateKey } : rest;
    if (Object.keys(body).length === 0) return form.reset();
    try {
      const saved = await update.mutateAsync(body);
      form.reset({ privateKey: '', fallbackURL: saved.fallbackURL ?? '' });
      toast.show(body.privateKey ? 'Signing key replaced: tokens signed with the old one stop working' : 'Saved');
    } catch (error) {
      showServerError(form, error, ['privateKey', 'fallbackURL']);
    }
  });
  return (
    <div className="form">
      <div className="field">
        <div className="field-top">
          <label className="field-label" htmlFor={`${id}-key`}>
            Signing key
          </label>
        </div>
        <div className="input-row">
          <input
            id={`${id}-key`}
            className="input input-mono"
            type={shown ? 'text' : 'password'}
            readOnly
            value={auth.privateKey}
            aria-describedby={`${id}-key-hint`}
          />
          <Button size="sm" onClick={() => setShown(!shown)} aria-pressed={shown}>
            {shown ? 'Hide' : 'Show'}
          </Button>
          <CopyButton text={auth.privateKey} label="Copy key" />
          <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
            Regenerate…
          </Button>
        </div>
        <p id={`${id}-key-hint`} className="field-hint">
          Your sign-in service signs visitor tokens (JWT, HS256) with it; readers open the site with{' '}
          <code>?jwt_token=…</code>. Their claims are what conditions test.
        </p>
      </div>
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Visitor authentication">
        <FormError message={errors.root?.server?.message} />
        <TextField
          control={form.control}
          name="privateKey"
          label="Set a key by hand"
          hint="Only to use a key you already have; leave it empty to keep the current one."
          max={VISITOR_KEY_MAX}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          control={form.control}
          name="fallbackURL"
          label="Sign-in address"
          hint="Visitors without a valid token go here (with the page they wanted as ?location=). Empty for none."
          type="url"
          autoComplete="off"
        />
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={!isDirty} loading={isSubmitting}>
            Save visitor authentication
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Regenerate the signing key?"
        confirmLabel="Regenerate key"
        action={async () => {
          await regenerate.mutateAsync();
          toast.show('New signing key: tokens signed with the old one stop working');
        }}
      >
        <p>
          Every visitor token signed with the current key stops working at once; your sign-in service needs the new one.
        </p>
      </ConfirmDialog>
    </div>
  );
}
