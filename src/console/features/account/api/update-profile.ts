import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { userSchema } from '../../../../shared/contract';
import type { UpdateUserBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `PATCH /v1/user {displayName?, photo?}` → the user. `photo` is the base64 of a PNG, JPEG, GIF or WebP image, or
 * null to remove it; a bad one is a 400 naming `photo`.
 */
export function updateProfile(body: UpdateUserBody) {
  return api.patch<typeof userSchema>('/user', body);
}

/** Saves the profile; the account menu (which reads the user query) shows the change at once. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => queryClient.setQueryData(queryKeys.user, user),
  });
}
