import { ApiError, isApiError } from '../../../lib/api-client';

export const STALE_EDIT_MESSAGE =
  'This change request changed meanwhile (someone else edited it). Reload to get its latest version, then edit again.';

/**
 * Whether an edit was refused because the change request moved on since the revision it was based on (If-Match).
 * The server answers 409 for it, as for a merged or archived change request; its message tells them apart.
 */
export function isStaleEdit(error: unknown): error is ApiError {
  return isApiError(error, 409) && /changed since/i.test(error.message);
}

/** The error of an edit, its message made plain when the edit was based on a stale revision. */
export function editErrorMessage(error: unknown): unknown {
  if (isStaleEdit(error)) return new ApiError(409, STALE_EDIT_MESSAGE, [], error.requestId);
  return error;
}
