import { SPACE_TITLE_MAX } from '../../../../shared/contract';
import type { Space, UpdateSpaceBody } from '../../../../shared/contract';
import { FormActions } from '../../../components/ui/form-actions';
import { SelectField, TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { changedFields, showServerError, useZodForm } from '../../../lib/form';
import { useUpdateSpace } from '../api/update-space';
import { updateSpaceBodySchema } from '../../../../shared/contract';
import { editModeOptions, visibilityOptions } from '../utils/labels';
import { EmojiField } from './emoji-field';
import '../content.css';

function valuesOf(space: Space) {
  return {
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    editMode: space.editMode ?? 'live',
  };
}

/** Title, emoji, visibility and edit mode of a space; only what changed is sent. */
export function SpaceSettingsForm({ space }: { space: Space }) {
  const form = useZodForm(updateSpaceBodySchema, { defaultValues: valuesOf(space) });
  const update = useUpdateSpace(space);
  const toast = useToast();
  // Title and emoji need the edit level; visibility and edit mode need admin (as on the server).
  const readOnly = !space.permissions.edit;
  const settingsReadOnly = !space.permissions.admin;
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const body: UpdateSpaceBody | null = changedFields(form, values, ['emoji']);
    if (!body) return;
    try {
      const updated = await update.mutateAsync(body);
      form.reset(valuesOf(updated));
      toast.show('Space settings saved');
    } catch (error) {
      showServerError(form, error, ['title', 'emoji', 'visibility', 'editMode']);
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Space settings">
      {readOnly ? (
        <p className="notice notice-info">You can read this space but not change its settings.</p>
      ) : (
        settingsReadOnly && (
          <p className="notice notice-info">
            Only administrators of this space can change its visibility and edit mode.
          </p>
        )
      )}
      <FormError message={errors.root?.server?.message} />
      <fieldset className="fieldset" disabled={readOnly}>
        <div className="form-row">
          <TextField
            control={form.control}
            name="title"
            label="Title"
            max={SPACE_TITLE_MAX}
            autoComplete="off"
            required
          />
        </div>
        <EmojiField control={form.control} name="emoji" disabled={readOnly} />
        <fieldset className="form-grid fieldset" disabled={settingsReadOnly}>
          <SelectField
            control={form.control}
            name="visibility"
            label="Visibility"
            options={visibilityOptions(space.parent !== undefined)}
          />
          <SelectField control={form.control} name="editMode" label="Edit mode" options={editModeOptions} />
        </fieldset>
      </fieldset>
      {!readOnly && <FormActions form={form} />}
    </form>
  );
}
