import type { ServiceContext } from '../context.js';
import * as translations from '../../storage/repos/translations.js';
import { keysetPage } from '../../storage/pagination.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { CreateTranslationBody, UpdateTranslationBody } from '../../../shared/contract/translations.js';
import { translationPolicy } from './policy.js';

/** Translation settings of an organization: members (not guests) read them, admins change them. */
async function readAccess(ctx: ServiceContext, organizationId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  if (!translationPolicy.can(access.role, 'view')) throw new ForbiddenError('Guests cannot see translation settings');
  return access;
}

export async function listTranslations(
  ctx: ServiceContext,
  organizationId: string,
  page: string | undefined,
  limit: number,
) {
  const access = await readAccess(ctx, organizationId);
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => translations.listTranslations(ctx.db, organizationId, after, take),
    count: () => translations.countTranslations(ctx.db, organizationId),
    key: (row) => [row.id],
  });
  return { ...result, role: access.role };
}

export async function getTranslation(ctx: ServiceContext, organizationId: string, id: string) {
  const access = await readAccess(ctx, organizationId);
  const row = await translations.findTranslation(ctx.db, organizationId, id);
  if (!row) throw new NotFoundError('Translation settings not found');
  return { row, role: access.role };
}

export async function createTranslation(ctx: ServiceContext, organizationId: string, body: CreateTranslationBody) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, translationPolicy.needs('edit'), 'change translation settings');
  const now = nowIso();
  const row: translations.TranslationRow = {
    id: newId(),
    organization_id: organizationId,
    title: body.title,
    languages: JSON.stringify(body.languages),
    created_at: now,
    updated_at: now,
  };
  await translations.insertTranslation(ctx.db, row);
  return { row, role: access.role };
}

export async function updateTranslation(
  ctx: ServiceContext,
  organizationId: string,
  id: string,
  body: UpdateTranslationBody,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  if (!(await translations.findTranslation(ctx.db, organizationId, id))) {
    throw new NotFoundError('Translation settings not found');
  }
  requireOrgRole(access, translationPolicy.needs('edit'), 'change translation settings');
  const patch: Partial<translations.TranslationRow> = { updated_at: nowIso() };
  if (body.title !== undefined) patch.title = body.title;
  if (body.languages !== undefined) patch.languages = JSON.stringify(body.languages);
  await translations.updateTranslation(ctx.db, id, patch);
  return { row: (await translations.findTranslation(ctx.db, organizationId, id))!, role: access.role };
}

/** False when there was no such settings (the route answers 204). */
export async function deleteTranslation(ctx: ServiceContext, organizationId: string, id: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, translationPolicy.needs('edit'), 'change translation settings');
  return translations.deleteTranslation(ctx.db, organizationId, id);
}
