import { useId } from 'react';
import type { RefObject } from 'react';
import { useController } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import type { z } from 'zod';
import { TRANSLATION_TITLE_MAX } from '../../../../shared/contract';
import type { CreateTranslationBody, TranslationLanguage, TranslationSettings } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateTranslation } from '../api/create-translation';
import { createTranslationBodySchema } from '../../../../shared/contract';
import { useUpdateTranslation } from '../api/update-translation';
import { languageOptions, toggleLanguage } from '../utils/languages';
import '../translations.css';

type CreateTranslationInput = z.input<typeof createTranslationBodySchema>;

interface Props {
  organizationId: string;
  /** Absent: new settings. */
  translation?: TranslationSettings;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function TranslationDialog({ organizationId, translation, ...props }: Props) {
  return (
    <Dialog {...props} title={translation ? `Edit ${translation.title}` : 'New translation'}>
      <TranslationForm
        organizationId={organizationId}
        translation={translation}
        onDone={() => props.onOpenChange(false)}
      />
    </Dialog>
  );
}

function TranslationForm({
  organizationId,
  translation,
  onDone,
}: {
  organizationId: string;
  translation?: TranslationSettings;
  onDone: () => void;
}) {
  const form = useZodForm(createTranslationBodySchema, {
    defaultValues: { title: translation?.title ?? '', languages: translation?.languages ?? [] },
  });
  const create = useCreateTranslation(organizationId);
  const update = useUpdateTranslation(organizationId, translation?.id ?? '');
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = translation ? await update.mutateAsync(values) : await create.mutateAsync(values);
      toast.show(translation ? `“${saved.title}” saved` : `Translation “${saved.title}” created`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title', 'languages']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit={translation ? 'Save' : 'Create translation'}>
      <TextField
        control={form.control}
        name="title"
        label="Title"
        max={TRANSLATION_TITLE_MAX}
        autoComplete="off"
        required
      />
      <LanguagesField control={form.control} />
    </DialogForm>
  );
}

/** The languages, as a group of checkboxes (Tab moves between them, Space ticks). */
function LanguagesField({ control }: { control: Control<CreateTranslationInput, unknown, CreateTranslationBody> }) {
  const id = useId();
  const { field, fieldState } = useController({ control, name: 'languages' });
  const chosen: TranslationLanguage[] = field.value ?? [];
  const error = fieldState.error?.message;
  return (
    <fieldset className="fieldset languages" aria-describedby={error ? `${id}-error` : `${id}-count`}>
      <legend className="field-label">Languages</legend>
      <p id={`${id}-count`} className="field-hint">
        {chosen.length === 0 ? 'None chosen yet.' : `${chosen.length} chosen: ${chosen.join(', ')}`}
      </p>
      <div className="languages-grid">
        {languageOptions().map(({ code, name }) => (
          <label key={code} className="language-option">
            <input
              type="checkbox"
              checked={chosen.includes(code)}
              onChange={(event) => field.onChange(toggleLanguage(chosen, code, event.target.checked))}
              onBlur={field.onBlur}
            />
            <span>{name}</span>
            <span className="language-code">{code}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
