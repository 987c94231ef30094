import { z } from 'zod';

/** A `redirect` search parameter: a path inside the console only, never another site. */
export const redirectSearchSchema = z.object({
  redirect: z
    .string()
    .refine((value) => value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\'))
    .optional()
    .catch(undefined),
});
