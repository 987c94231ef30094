import { z } from 'zod';
import { idSchema, timestampSchema } from './common.js';
import { organizationParamsSchema } from './organizations.js';
import { listSchema } from '../pagination.js';

export const TRANSLATION_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;
export const translationLanguageSchema = z.enum(TRANSLATION_LANGUAGES);
export type TranslationLanguage = z.infer<typeof translationLanguageSchema>;

export const TRANSLATION_TITLE_MIN = 1;
export const TRANSLATION_TITLE_MAX = 128;

const titleSchema = z.string().trim().min(TRANSLATION_TITLE_MIN).max(TRANSLATION_TITLE_MAX);
/** Distinct codes among TRANSLATION_LANGUAGES. */
const languagesSchema = z
  .array(translationLanguageSchema)
  .max(TRANSLATION_LANGUAGES.length)
  .refine((v) => new Set(v).size === v.length, 'Each language may appear once');

export const createTranslationBodySchema = z.object({ title: titleSchema, languages: languagesSchema.default([]) });
export type CreateTranslationBody = z.infer<typeof createTranslationBodySchema>;
export const updateTranslationBodySchema = z.object({
  title: titleSchema.optional(),
  languages: languagesSchema.optional(),
});
export type UpdateTranslationBody = z.infer<typeof updateTranslationBodySchema>;

export const translationSettingsSchema = z.object({
  object: z.literal('translation-settings'),
  id: z.string(),
  title: z.string(),
  languages: z.array(translationLanguageSchema),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  urls: z.object({ location: z.string() }),
});
export type TranslationSettings = z.infer<typeof translationSettingsSchema>;
export const translationSettingsListSchema = listSchema(translationSettingsSchema);

export const translationParamsSchema = organizationParamsSchema.extend({ translationSettingsId: idSchema });
