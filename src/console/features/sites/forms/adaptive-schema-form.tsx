import { z } from 'zod';
import type { AdaptiveJsonSchema } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { FormActions } from '../../../components/ui/form-actions';
import { TextareaField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useUpdateAdaptiveSchema } from '../api/update-adaptive-schema';
import { updateAdaptiveSchemaBodySchema } from '../../../../shared/contract';
import type { SiteRef } from '../utils/paths';

/** The schema is edited as JSON text: it must parse, and be an object, before the contract's rule applies. */
const adaptiveSchemaFormSchema = updateAdaptiveSchemaBodySchema.extend({
  jsonSchema: z
    .string()
    .transform((text, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `Not valid JSON: ${(error as Error).message}` });
        return z.NEVER;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: 'The schema must be a JSON object ({ … }).' });
        return z.NEVER;
      }
      return value;
    })
    .pipe(updateAdaptiveSchemaBodySchema.shape.jsonSchema),
});

const format = (schema: AdaptiveJsonSchema) => JSON.stringify(schema, null, 2);

export const ADAPTIVE_SCHEMA_EXAMPLE = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "beta": { "type": "boolean", "description": "the visitor is in the beta programme" },
    "unsigned": {
      "type": "object",
      "properties": {},
      "additionalProperties": false
    }
  },
  "additionalProperties": false
}`;

/** The claims schema as JSON: parse errors while typing, the server's reasons (with where) on save. */
export function AdaptiveSchemaForm({
  site,
  jsonSchema,
  readOnly,
}: {
  site: SiteRef;
  jsonSchema: AdaptiveJsonSchema;
  readOnly: boolean;
}) {
  const form = useZodForm(adaptiveSchemaFormSchema, { defaultValues: { jsonSchema: format(jsonSchema) } });
  const update = useUpdateAdaptiveSchema(site);
  const toast = useToast();
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const saved = await update.mutateAsync(body);
      form.reset({ jsonSchema: format(saved.jsonSchema) });
      toast.show('Adaptive schema saved');
    } catch (error) {
      // The server names where in the schema the problem is (jsonSchema.properties.beta…): say it with the reason.
      if (
        error instanceof ApiError &&
        error.issues.some((i) => i.path === 'jsonSchema' || i.path.startsWith('jsonSchema.'))
      ) {
        const message = error.issues
          .map((i) => {
            const where = i.path.replace(/^jsonSchema\.?/, '');
            return where ? `${where}: ${i.message}` : i.message;
          })
          .join(' ');
        form.setError('jsonSchema', { type: 'server', message });
      } else {
        showServerError(form, error, ['jsonSchema']);
      }
    }
  });
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Adaptive schema">
      <FormError message={errors.root?.server?.message} />
      <TextareaField
        control={form.control}
        name="jsonSchema"
        label="Schema (JSON Schema draft-07)"
        hint="Boolean claims with a description, at the top level (signed, from the visitor token) and under “unsigned”."
        rows={16}
        spellCheck={false}
        readOnly={readOnly}
        className="input textarea input-mono"
      />
      {!readOnly && (
        <FormActions form={form} submit="Save schema">
          <Button
            type="button"
            variant="ghost"
            onClick={() =>
              form.setValue('jsonSchema', ADAPTIVE_SCHEMA_EXAMPLE, { shouldDirty: true, shouldValidate: true })
            }
          >
            Use the example
          </Button>
        </FormActions>
      )}
    </form>
  );
}
