import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useParams, useRouter } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { SPACE_TRASH_DAYS } from '../../shared/contract/constants';
import { buttonClass } from '../components/ui/button';
import { ErrorState } from '../components/ui/states';
import { isApiError } from '../lib/api-client';

/** When a collection or a space cannot be shown: say why, and offer the way back (or to the trash). */
export function contentError(kind: 'collection' | 'space') {
  return function ContentError({ error, reset }: ErrorComponentProps) {
    const { organizationId } = useParams({ strict: false });
    const router = useRouter();
    const queryErrorReset = useQueryErrorResetBoundary();
    useEffect(() => queryErrorReset.reset(), [queryErrorReset]);
    const missing = isApiError(error, 404);
    const message = missing
      ? kind === 'space'
        ? `It may have been deleted: deleted spaces stay in the trash for ${SPACE_TRASH_DAYS} days.`
        : 'It may have been deleted, or the link is wrong.'
      : undefined;
    return (
      <ErrorState
        error={error}
        title={missing ? `${kind === 'space' ? 'Space' : 'Collection'} not found` : undefined}
        message={message}
        onRetry={
          missing || isApiError(error, 403)
            ? undefined
            : () => {
                reset();
                void router.invalidate();
              }
        }
        action={
          organizationId && (
            <>
              <Link to="/o/$organizationId" params={{ organizationId }} className={buttonClass('secondary')}>
                Back to content
              </Link>
              {missing && kind === 'space' && (
                <Link to="/o/$organizationId/trash" params={{ organizationId }} className={buttonClass('secondary')}>
                  Open the trash
                </Link>
              )}
            </>
          )
        }
      />
    );
  };
}
