import { useId, useMemo } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import type { ConfigurationProperty, IntegrationConfiguration } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { FieldFrame, fieldDescribedBy } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { showServerError } from '../../../lib/form';

type Values = { configuration: Record<string, unknown> };

/**
 * A configuration form generated from the integration's own schema: a text field (or a choice among its `enum`),
 * a number or a checkbox per property, required ones marked. The server checks the values against the same
 * schema; its answer names the field that is wrong.
 */
export function ConfigurationForm({
  schema,
  values,
  onSave,
  readOnly,
  endpoint,
}: {
  schema: Extract<IntegrationConfiguration, { properties: unknown }>;
  values: Record<string, unknown>;
  onSave: (configuration: Record<string, unknown>) => Promise<unknown>;
  readOnly?: boolean;
  /** The installation's own address (its `publicEndpoint`): a button's `callback_url` is under it. */
  endpoint?: string | undefined;
}) {
  // Buttons (an OAuth "Authorize") open the integration's own page; what its script keeps for them stays as it is.
  const buttons = useMemo(
    () => Object.entries(schema.properties).filter(([, p]) => p.type === 'button'),
    [schema.properties],
  );
  const entries = useMemo(
    () => Object.entries(schema.properties).filter(([, p]) => p.type !== 'button'),
    [schema.properties],
  );
  const required = new Set(schema.required ?? []);
  const form = useForm<Values>({
    defaultValues: {
      configuration: Object.fromEntries(entries.map(([key, p]) => [key, values[key] ?? p.default ?? defaultOf(p)])),
    },
  });
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ configuration }) => {
    const clean: Record<string, unknown> = {};
    for (const [key] of buttons) if (values[key] !== undefined) clean[key] = values[key];
    for (const [key, p] of entries) {
      const value = configuration[key];
      if (value === '' || value === undefined || (p.type === 'number' && Number.isNaN(value))) {
        if (required.has(key)) {
          form.setError(`configuration.${key}`, { type: 'required', message: 'This value is required' });
          return;
        }
        continue;
      }
      clean[key] = p.type === 'number' ? Number(value) : value;
    }
    try {
      await onSave(clean);
      toast.show('Configuration saved');
    } catch (error) {
      showServerError(
        form,
        error,
        entries.map(([key]) => `configuration.${key}`),
      );
    }
  });
  if (entries.length === 0 && buttons.length === 0) {
    return <p className="section-text">This integration has no settings.</p>;
  }
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Configuration">
      <FormError message={form.formState.errors.root?.server?.message} />
      {buttons.map(([key, property]) => {
        const href =
          endpoint && property.callback_url && !/^[a-z][a-z0-9+.-]*:/i.test(property.callback_url)
            ? `${endpoint}${property.callback_url.startsWith('/') ? '' : '/'}${property.callback_url}`
            : undefined;
        return (
          <div key={key} className="field">
            <span className="field-label">{property.title ?? key}</span>
            {property.description && <p className="field-hint">{property.description}</p>}
            <p className="section-text">{values[key] !== undefined ? 'Connected.' : 'Not connected yet.'}</p>
            {href && !readOnly && (
              <a className="btn btn-secondary" href={href} target="_blank" rel="noopener noreferrer">
                {property.button_text ?? 'Connect'}
              </a>
            )}
          </div>
        );
      })}
      {entries.map(([key, property]) => (
        <PropertyField
          key={key}
          control={form.control}
          name={key}
          property={property}
          required={required.has(key)}
          readOnly={readOnly}
        />
      ))}
      {!readOnly && entries.length > 0 && (
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
            Save configuration
          </Button>
        </div>
      )}
    </form>
  );
}

function defaultOf(p: ConfigurationProperty): unknown {
  return p.type === 'boolean' ? false : '';
}

function PropertyField({
  control,
  name,
  property,
  required,
  readOnly,
}: {
  control: Control<Values>;
  name: string;
  property: ConfigurationProperty;
  required: boolean;
  readOnly?: boolean;
}) {
  const id = useId();
  const { field, fieldState } = useController({ control, name: `configuration.${name}` });
  const error = fieldState.error?.message;
  const label = `${property.title ?? name}${required ? '' : ' (optional)'}`;
  const hint = property.description;
  const described = fieldDescribedBy(id, { hint, error });
  if (property.type === 'boolean') {
    return (
      <FieldFrame id={id} label={label} hint={hint} error={error}>
        <input
          id={id}
          type="checkbox"
          checked={field.value === true}
          disabled={readOnly}
          onChange={(event) => field.onChange(event.target.checked)}
          aria-describedby={described}
        />
      </FieldFrame>
    );
  }
  if (property.type === 'string' && property.enum?.length) {
    return (
      <FieldFrame id={id} label={label} hint={hint} error={error}>
        <select
          id={id}
          className="input select"
          value={typeof field.value === 'string' ? field.value : ''}
          disabled={readOnly}
          onChange={(event) => field.onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        >
          <option value="">{required ? 'Choose…' : 'None'}</option>
          {property.enum.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </FieldFrame>
    );
  }
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        className="input"
        type={property.type === 'number' ? 'number' : 'text'}
        value={field.value === undefined || field.value === null ? '' : String(field.value)}
        readOnly={readOnly}
        onChange={(event) =>
          field.onChange(
            property.type === 'number' && event.target.value !== '' ? event.target.valueAsNumber : event.target.value,
          )
        }
        onBlur={field.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
    </FieldFrame>
  );
}
