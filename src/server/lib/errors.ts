import type { ErrorIssue } from '../../shared/errors.js';

/** Typed errors thrown by domain code; the error handler maps each to its HTTP status. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: ErrorIssue[],
    /** See `reason` in the error body. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class ForbiddenError extends DomainError {
  constructor(message = 'You do not have permission to do this') {
    super(403, message);
  }
}
export class UnauthorizedError extends DomainError {
  constructor(message = 'Authentication required: send an Authorization: Bearer token or sign in') {
    super(401, message);
  }
}
export class ConflictError extends DomainError {
  constructor(message: string, reason?: string) {
    super(409, message, undefined, reason);
  }
}

/** `reason` of a merge refused because the change request conflicts with the space (update it and resolve them). */
export const MERGE_CONFLICTS = 'merge-conflicts';
export class PreconditionFailedError extends DomainError {
  constructor(message: string) {
    super(412, message);
  }
}
export class GoneError extends DomainError {
  constructor(message: string) {
    super(410, message);
  }
}
export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
/** The server cannot do this now (too busy, or the work took too long); the client may retry later. */
export class ServiceUnavailableError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message);
  }
}
/** Bad input that the schema could not catch (it depends on stored data); names the field. */
export class InvalidError extends DomainError {
  constructor(field: string, message: string) {
    super(400, `${field}: ${message}`, [{ path: field, message }]);
  }
}
/** The organization requires a session that came through its identity provider (enforced SSO). */
export class SsoRequiredError extends DomainError {
  constructor(readonly organizationId: string) {
    super(
      403,
      'This organization requires single sign-on: sign in through its identity provider to reach it',
      undefined,
      'sso-required',
    );
  }
}
