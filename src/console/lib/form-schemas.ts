import { z } from 'zod';

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
