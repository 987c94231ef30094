import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { ErrorOption, FieldValues, UseFormProps, UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { ApiError, errorMessage } from './api-client';

/**
 * A react-hook-form bound to a contract schema: the console validates with exactly what the server validates,
 * while typing (so limits show at once) and again before submit.
 */
export function useZodForm<S extends z.ZodType<unknown, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onChange',
    ...options,
    resolver: zodResolver(schema as never) as never,
  });
}

/** Key of the form-wide error that is not about one field. */
export const ROOT_SERVER_ERROR = 'root.server' as const;

/** What showServerError needs of a form; method syntax so any `UseFormReturn` fits. */
interface ErrorTarget {
  setError(name: string, error: ErrorOption): void;
  getValues(): unknown;
}

/**
 * Shows a failed request in the form: each issue beside the field its path names (`title`, `position.before`),
 * and anything that concerns no visible field as the form-wide error.
 */
export function showServerError(form: ErrorTarget, error: unknown, fields?: readonly string[]): void {
  const names = fields ?? Object.keys((form.getValues() as object | undefined) ?? {});
  let unplaced: string[] = [];
  if (error instanceof ApiError) {
    for (const issue of error.issues) {
      const field = names.find((name) => issue.path === name || issue.path.startsWith(`${name}.`));
      if (field) form.setError(field, { type: 'server', message: issue.message });
      else unplaced.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
    }
    if (error.issues.length === 0) unplaced = [error.message];
    else if (unplaced.length > 0) unplaced.unshift(error.message);
  } else {
    unplaced = [errorMessage(error)];
  }
  if (unplaced.length > 0) form.setError(ROOT_SERVER_ERROR, { type: 'server', message: unplaced.join(' ') });
}

/**
 * A text field where empty means "none" (the API wants the field left out, or `null` to remove a value): empty
 * reads as undefined, anything else must pass the contract's rule, whose message is the one shown.
 */
export function emptyAsUndefined<S extends z.ZodType<unknown, string>>(schema: S) {
  return z
    .string()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(schema.optional());
}

/** A PATCH body of a form's values: each field optional; those that may be cleared can be `null`. */
export type ChangedFields<V, N extends keyof V> = { [K in keyof V]?: K extends N ? V[K] | null : V[K] };

/**
 * The fields the user changed, as a PATCH body (a field left alone is not sent, so it cannot overwrite what
 * someone else saved meanwhile), or `null` when nothing changed. The `clearable` fields send `null` when emptied
 * (`''` or undefined), which the API reads as "remove".
 */
export function changedFields<V extends object, N extends keyof V = never>(
  form: { formState: { dirtyFields: object } },
  values: V,
  clearable: readonly N[] = [],
): ChangedFields<V, N> | null {
  const dirty = form.formState.dirtyFields as Partial<Record<keyof V, unknown>>;
  const body: ChangedFields<V, N> = {};
  for (const key of Object.keys(dirty) as (keyof V)[]) {
    if (!dirty[key]) continue;
    const value = values[key];
    const cleared = clearable.includes(key as N) && (value === '' || value === undefined);
    body[key] = (cleared ? null : value) as ChangedFields<V, N>[keyof V];
  }
  return Object.keys(body).length === 0 ? null : body;
}
