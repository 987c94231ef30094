import { useId, useState } from 'react';
import type { RefObject } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  OPENAPI_SLUG_MAX,
  OPENAPI_TEXT_MAX,
  OPENAPI_URL_MAX,
  openApiSlugSchema,
  openApiSourceSchema,
  type OpenApiSource,
  type OpenApiSpec,
} from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { FieldFrame, fieldDescribedBy, TextareaField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateSpec, useUpdateSpec } from '../api/save-spec';
import '../openapi.css';

const KINDS = { url: 'From a URL', file: 'Upload a file', text: 'Paste the text' } as const;
type Kind = keyof typeof KINDS;

/**
 * The form's fields: where the source comes from (UI only) and its value; the URL and text follow the contract's
 * own source rules, the slug its slug rule.
 */
const sourceFormSchema = z
  .object({
    slug: z.string(),
    kind: z.enum(['url', 'file', 'text']),
    url: z.string(),
    text: z.string(),
    fileName: z.string(),
  })
  .superRefine((value, ctx) => {
    const source = value.kind === 'url' ? { url: value.url.trim() } : { text: value.text };
    const parsed = openApiSourceSchema.safeParse(source);
    if (!parsed.success) {
      const path = value.kind === 'url' ? 'url' : 'text';
      const message =
        value.kind === 'url'
          ? value.url.trim()
            ? 'Enter an http or https URL'
            : 'Enter the URL of the specification'
          : value.text
            ? `The specification is larger than ${OPENAPI_TEXT_MAX / 1024 / 1024} MiB`
            : value.kind === 'file'
              ? 'Choose a YAML or JSON file'
              : 'Paste the specification';
      ctx.addIssue({ code: 'custom', path: [path], message });
    }
  });

const createFormSchema = sourceFormSchema.and(z.object({ slug: openApiSlugSchema }));

type FormInput = z.input<typeof sourceFormSchema>;

function sourceOf(values: FormInput): OpenApiSource {
  return values.kind === 'url' ? { url: values.url.trim() } : { text: values.text };
}

interface Props {
  organizationId: string;
  /** Absent: a new specification. */
  spec?: OpenApiSpec;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
  onSaved?: (spec: OpenApiSpec) => void;
}

export function SpecSourceDialog({ organizationId, spec, onSaved, ...props }: Props) {
  return (
    <Dialog
      {...props}
      title={spec ? `Update “${spec.slug}”` : 'Add an OpenAPI specification'}
      description={
        spec
          ? 'The new source is processed in the background; a new version is kept if its content changed.'
          : 'OpenAPI 3.0, 3.1 or Swagger 2.0, in YAML or JSON. It is processed in the background.'
      }
    >
      <SourceForm
        organizationId={organizationId}
        spec={spec}
        onDone={(saved) => {
          props.onOpenChange(false);
          onSaved?.(saved);
        }}
      />
    </Dialog>
  );
}

function SourceForm({
  organizationId,
  spec,
  onDone,
}: {
  organizationId: string;
  spec?: OpenApiSpec;
  onDone: (spec: OpenApiSpec) => void;
}) {
  const form = useZodForm(spec ? sourceFormSchema : createFormSchema, {
    defaultValues: {
      slug: spec?.slug ?? '',
      kind: spec && !spec.sourceURL ? 'file' : 'url',
      url: spec?.sourceURL ?? '',
      text: '',
      fileName: '',
    },
  });
  const create = useCreateSpec(organizationId);
  const update = useUpdateSpec(organizationId, spec?.slug ?? '');
  const toast = useToast();
  const kind = useWatch({ control: form.control, name: 'kind' });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = spec
        ? await update.mutateAsync(sourceOf(values))
        : await create.mutateAsync({ slug: values.slug, source: sourceOf(values) });
      toast.show(spec ? `“${saved.slug}” is being processed again` : `“${saved.slug}” added: processing…`);
      onDone(saved);
    } catch (error) {
      showServerError(form, error, ['slug']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit={spec ? 'Process' : 'Add specification'}>
      {!spec && (
        <TextField
          control={form.control}
          name="slug"
          label="Slug"
          hint="How pages refer to it: lowercase letters, digits and dashes (petstore, billing-api)."
          max={OPENAPI_SLUG_MAX}
          autoComplete="off"
          spellCheck={false}
          required
        />
      )}
      <KindField control={form.control} />
      {kind === 'url' && (
        <TextField
          control={form.control}
          name="url"
          label="URL"
          hint="Fetched by the server now, and again each time you process it."
          max={OPENAPI_URL_MAX}
          type="url"
          inputMode="url"
          placeholder="https://example.com/openapi.yaml"
          autoComplete="off"
        />
      )}
      {kind === 'file' && <FileField control={form.control} />}
      {kind === 'text' && (
        <TextareaField
          control={form.control}
          name="text"
          label="Specification"
          rows={12}
          spellCheck={false}
          className="input textarea code-input"
          placeholder={'openapi: 3.1.0\ninfo:\n  title: …'}
        />
      )}
    </DialogForm>
  );
}

function KindField({ control }: { control: ReturnType<typeof useZodForm<typeof sourceFormSchema>>['control'] }) {
  const id = useId();
  const { field } = useController({ control, name: 'kind' });
  return (
    <fieldset className="field radio-group">
      <legend className="field-label">Source</legend>
      {(Object.keys(KINDS) as Kind[]).map((k) => (
        <label key={k} className="radio" htmlFor={`${id}-${k}`}>
          <input
            id={`${id}-${k}`}
            type="radio"
            name={field.name}
            value={k}
            checked={field.value === k}
            onChange={() => field.onChange(k)}
          />{' '}
          {KINDS[k]}
        </label>
      ))}
    </fieldset>
  );
}

function FileField({ control }: { control: ReturnType<typeof useZodForm<typeof sourceFormSchema>>['control'] }) {
  const id = useId();
  const { field: text, fieldState } = useController({ control, name: 'text' });
  const { field: fileName } = useController({ control, name: 'fileName' });
  const [reading, setReading] = useState(false);
  const error = fieldState.error?.message;
  const hint = fileName.value
    ? `${fileName.value} (${Math.ceil(text.value.length / 1024)} KB)`
    : 'A .yaml, .yml or .json file.';
  return (
    <FieldFrame id={id} label="File" hint={hint} error={error}>
      <input
        id={id}
        className="input"
        type="file"
        accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint, error })}
        aria-busy={reading || undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          setReading(true);
          void file.text().then(
            (value) => {
              fileName.onChange(file.name);
              text.onChange(value);
              setReading(false);
            },
            () => setReading(false),
          );
        }}
      />
    </FieldFrame>
  );
}
