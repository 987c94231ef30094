import { z } from 'zod';

/** One problem with the request, naming the field it concerns (dot path, e.g. `position.before.space`). */
export const errorIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type ErrorIssue = z.infer<typeof errorIssueSchema>;

/** Every error response: `{"error":{"code":<http status>,"message":"..."}}`, plus `issues` for validation errors. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    issues: z.array(errorIssueSchema).optional(),
    /**
     * A machine-readable reason where the console acts on it: `sso-required` (sign in through the organization's
     * identity provider), `merge-conflicts` (update the change request from the space and resolve its conflicts).
     */
    reason: z.string().optional(),
    requestId: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export function isErrorBody(value: unknown): value is ErrorBody {
  return errorBodySchema.safeParse(value).success;
}
