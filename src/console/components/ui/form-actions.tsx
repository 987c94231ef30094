import type { ReactNode } from 'react';
import { Button } from './button';

/** What the actions read of a react-hook-form, and the reset they call. */
interface EditedForm {
  formState: { isDirty: boolean; isSubmitting: boolean };
  reset: () => void;
}

/**
 * The end of a settings form on a page: Discard (the saved values back) and Save, both waiting for a change;
 * `children` go first (e.g. "Use the example").
 */
export function FormActions({
  form,
  submit = 'Save settings',
  children,
}: {
  form: EditedForm;
  submit?: ReactNode;
  children?: ReactNode;
}) {
  const { isDirty, isSubmitting } = form.formState;
  return (
    <div className="form-actions">
      {children}
      <Button type="button" variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => form.reset()}>
        Discard changes
      </Button>
      <Button type="submit" variant="primary" disabled={!isDirty} loading={isSubmitting}>
        {submit}
      </Button>
    </div>
  );
}
