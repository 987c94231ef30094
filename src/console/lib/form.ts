import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ErrorOption, FieldValues, Resolver, UseFormProps, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, errorMessage } from './api-client';

/**
 * A contract schema, or how to load it. The sign-in and sign-up pages open many first visits, which need neither
 * zod nor the contract's schemas (33 kB compressed) until the person types: their forms pass
 * `() => import('…/shared/contract').then((contract) => contract.loginBodySchema)`.
 */
export type SchemaSource<S> = S | (() => Promise<S>);

/**
 * The contract's rules in plain language, as the server words them (shared/messages.ts). Installed before the
 * first validation rather than at start: zod is not part of the first download.
 */
let messages: Promise<void> | undefined;
const installMessages = () =>
  (messages ??= import('../../shared/messages').then(
    ({ installZodMessages }) => installZodMessages(),
    (error: unknown) => {
      messages = undefined;
      throw error;
    },
  ));

/**
 * Validates with the schema once it and the messages are loaded; `load` starts loading them (once). When they
 * cannot be downloaded, a submit is refused with a form-wide error that says so (a browser does not download a
 * module again once it failed, so the way out is a reload).
 */
function contractResolver<S extends z.ZodType>(source: SchemaSource<S>) {
  let ready: Promise<Resolver> | undefined;
  const load = () =>
    (ready ??= Promise.all([typeof source === 'function' ? source() : source, installMessages()]).then(
      ([schema]) => zodResolver(schema as never) as unknown as Resolver,
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    ));
  const resolver: Resolver = async (values, context, options) => {
    let validate: Resolver;
    try {
      validate = await load();
    } catch {
      const message = 'The form could not be checked: its rules did not download. Reload the page and try again.';
      return { values: {}, errors: { root: { server: { type: 'load', message } } } };
    }
    return validate(values, context, options);
  };
  return { resolver, load };
}

/**
 * A react-hook-form bound to a contract schema: the console validates with exactly what the server validates,
 * while typing (so limits show at once) and again before submit. A schema to load is loaded at the first change
 * of a field (a submit waits for it), any other at once.
 */
export function useZodForm<S extends z.ZodType<unknown, FieldValues>>(
  schema: SchemaSource<S>,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const [{ resolver, load }] = useState(() => contractResolver(schema));
  const form = useForm<z.input<S>, unknown, z.output<S>>({ mode: 'onChange', ...options, resolver: resolver as never });
  const lazy = typeof schema === 'function';
  const { subscribe } = form;
  useEffect(() => {
    // Loading ahead; a failure is told when the form is submitted (the resolver).
    const preload = () => void load().catch(() => undefined);
    if (!lazy) {
      preload();
      return;
    }
    return subscribe({ formState: { values: true }, callback: preload });
  }, [subscribe, lazy, load]);
  return form;
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
