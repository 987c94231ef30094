import type { ReactNode } from 'react';
import { errorMessage, isApiError } from '../../lib/api-client';
import { Button } from './button';
import { AlertIcon } from './icons';

export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}

/** A region that says it is loading, for people who cannot see the spinner too. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  action,
  level = 2,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  /** 3 inside a section that has its own heading. */
  level?: 2 | 3;
}) {
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <div className="state state-empty">
      {icon && <div className="state-icon">{icon}</div>}
      <Heading className="state-title">{title}</Heading>
      {children && <div className="state-text">{children}</div>}
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}

function titleFor(error: unknown): string {
  if (isApiError(error, 404)) return 'Not found';
  if (isApiError(error, 403)) return 'No access';
  if (isApiError(error, 0)) return 'Offline';
  return 'Something went wrong';
}

export function ErrorState({
  error,
  title,
  message,
  onRetry,
  action,
}: {
  error: unknown;
  title?: string;
  /** Replaces the error's own message, e.g. with what to do next. */
  message?: ReactNode;
  onRetry?: () => void;
  action?: ReactNode;
}) {
  const heading = title ?? titleFor(error);
  const text = message ?? (errorMessage(error) === heading ? undefined : errorMessage(error));
  return (
    <div className="state state-error" role="alert">
      <div className="state-icon">
        <AlertIcon width={24} height={24} />
      </div>
      <h2 className="state-title">{heading}</h2>
      {text && <p className="state-text">{text}</p>}
      {isApiError(error) && error.requestId && <p className="state-meta">Request id: {error.requestId}</p>}
      {(onRetry || action) && (
        <div className="state-action">
          {onRetry && <Button onClick={onRetry}>Try again</Button>}
          {action}
        </div>
      )}
    </div>
  );
}

/** A form-wide error (not about one field), announced when it appears. */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <div className="form-error" role="alert">
      <AlertIcon />
      <span>{message}</span>
    </div>
  );
}
