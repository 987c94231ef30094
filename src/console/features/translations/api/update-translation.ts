import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { translationSettingsSchema } from '../../../../shared/contract';
import type { UpdateTranslationBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}` `{title?, languages?}`. */
export function updateTranslation(organizationId: string, translationId: string, body: UpdateTranslationBody) {
  return api.put<typeof translationSettingsSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/translations/${encodeURIComponent(translationId)}`,
    body,
  );
}

export function useUpdateTranslation(organizationId: string, translationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTranslationBody) => updateTranslation(organizationId, translationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.translations.list(organizationId) }),
  });
}
