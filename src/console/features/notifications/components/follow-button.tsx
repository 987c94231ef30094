import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { followingQueryOptions, useSetFollowing, type Followable } from '../api/following';

/**
 * "Follow" / "Following": whether the signed-in person hears of comments (and, for a change request, reviews and its
 * merge) in their inbox. A toggle button (`aria-pressed`); nothing shows until the state is known.
 */
export function FollowButton({ target, what }: { target: Followable; what: 'change request' | 'page' }) {
  const state = useQuery(followingQueryOptions(target));
  const setFollowing = useSetFollowing(target);
  const toast = useToast();
  if (!state.data) return null;
  const following = state.data.following;
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-pressed={following}
      title={
        following
          ? `You are notified of comments on this ${what}. Click to stop.`
          : `Be notified of comments on this ${what}`
      }
      onClick={() =>
        setFollowing.mutate(!following, {
          onSuccess: (done) =>
            toast.show(done.following ? `Following this ${what}` : `No longer following this ${what}`),
          onError: (error) => toast.show(errorMessage(error), 'error'),
        })
      }
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
