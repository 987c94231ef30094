import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTranslationBody, translationSettingsSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/translations` `{title, languages}` → 201 (admins). */
export function createTranslation(organizationId: string, body: CreateTranslationBody) {
  return api.post<typeof translationSettingsSchema>(`/orgs/${encodeURIComponent(organizationId)}/translations`, body);
}

export function useCreateTranslation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTranslationBody) => createTranslation(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.translations.list(organizationId) }),
  });
}
