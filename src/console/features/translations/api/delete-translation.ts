import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TranslationSettings } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/translations/{translationSettingsId}`. */
export function deleteTranslation(organizationId: string, translationId: string) {
  return api.send(
    'DELETE',
    `/orgs/${encodeURIComponent(organizationId)}/translations/${encodeURIComponent(translationId)}`,
  );
}

export function useDeleteTranslation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (translation: TranslationSettings) => deleteTranslation(organizationId, translation.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.translations.list(organizationId) }),
  });
}
