import { useEffect, useId, useRef, useState } from 'react';
import { z } from 'zod';
import { DISPLAY_NAME_MAX, displayNameSchema, USER_PHOTO_BYTES_MAX } from '../../../../shared/contract';
import type { User } from '../../../../shared/contract';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useUpdateProfile } from '../api/update-profile';
import { fileToBase64, photoProblem } from '../utils/photo';
import '../account.css';

const nameFormSchema = z.object({ displayName: displayNameSchema });

/** The display name others see, with its own "Save" (the photo saves as soon as it is chosen). */
export function ProfileForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const toast = useToast();
  const form = useZodForm(nameFormSchema, { defaultValues: { displayName: user.displayName }, mode: 'onTouched' });
  // Once saved (here or elsewhere), the saved name is the one to compare with.
  useEffect(() => form.reset({ displayName: user.displayName }), [form, user.displayName]);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ displayName: values.displayName });
      toast.show('Display name saved');
    } catch (error) {
      showServerError(form, error, ['displayName']);
    }
  });
  return (
    <div className="profile-settings">
      <PhotoField user={user} />
      <form className="form profile-form" onSubmit={onSubmit} noValidate aria-label="Change display name">
        <FormError message={form.formState.errors.root?.server?.message} />
        <TextField
          control={form.control}
          name="displayName"
          label="Display name"
          hint="How others see you in comments, reviews and member lists."
          max={DISPLAY_NAME_MAX}
          autoComplete="name"
        />
        <div className="form-actions">
          <Button
            type="submit"
            variant="primary"
            loading={form.formState.isSubmitting}
            disabled={!form.formState.isDirty}
          >
            Save name
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The photo: chosen from a file (saved at once), or removed after confirming. */
function PhotoField({ user }: { user: User }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const update = useUpdateProfile();
  const toast = useToast();
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const upload = async (file: File) => {
    setError(undefined);
    const problem = photoProblem(file);
    if (problem) return setError(problem);
    try {
      await update.mutateAsync({ photo: await fileToBase64(file) });
      toast.show('Photo saved');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <div className="photo-field">
      <Avatar user={user} size={72} />
      <div className="photo-field-controls">
        <label className="field-label" htmlFor={id}>
          Photo
        </label>
        <p className="field-hint" id={`${id}-hint`}>
          A PNG, JPEG, GIF or WebP image of at most {USER_PHOTO_BYTES_MAX / 1024} KB, stored on this server. Shown
          beside your name.
        </p>
        <div className="photo-field-actions">
          <input
            ref={input}
            id={id}
            className="input photo-input"
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            disabled={update.isPending}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (file) void upload(file);
            }}
          />
          {user.photoURL && (
            <Button ref={removeButton} size="sm" onClick={() => setConfirming(true)} disabled={update.isPending}>
              Remove photo
            </Button>
          )}
        </div>
        {update.isPending && (
          <p className="field-hint" role="status">
            Saving the photo…
          </p>
        )}
        {error && (
          <p className="field-error" id={`${id}-error`} role="alert">
            {error}
          </p>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocusRef={removeButton}
        title="Remove your photo?"
        confirmLabel="Remove photo"
        action={async () => {
          await update.mutateAsync({ photo: null });
          toast.show('Photo removed');
        }}
      >
        <p>Your initials will show instead. You can choose a photo again at any time.</p>
      </ConfirmDialog>
    </div>
  );
}
