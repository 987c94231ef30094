import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addSectionToGroupBodySchema,
  createSectionBodySchema,
  createSectionGroupBodySchema,
  createSiteSpaceBodySchema,
  groupSectionParamsSchema,
  listSiteSectionsQuerySchema,
  listSiteSpacesQuerySchema,
  moveSectionBodySchema,
  moveSectionGroupBodySchema,
  moveSiteSpaceBodySchema,
  siteParamsSchema,
  siteSectionGroupListSchema,
  siteSectionGroupParamsSchema,
  siteSectionGroupSchema,
  siteSectionListSchema,
  siteSectionParamsSchema,
  siteSectionSchema,
  siteSpaceListSchema,
  siteSpaceParamsSchema,
  siteSpaceSchema,
  siteStructureItemSchema,
  sortSiteStructureBodySchema,
  updateSectionBodySchema,
  updateSectionGroupBodySchema,
  updateSiteSpaceBodySchema,
} from '../../shared/contract/sites.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as sections from '../domain/sites/structure/sections.js';
import * as siteSpaces from '../domain/sites/structure/site-spaces.js';
import * as sectionGroups from '../domain/sites/structure/section-groups.js';
import { sortStructure } from '../domain/sites/structure/placement.js';
import { presentSection, presentSectionGroup, presentSiteSpace, type StructureView } from '../presenters/site.js';
import { serviceContext, type RouteDeps } from './context.js';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

/** `Prefer: return=minimal`: the operations that honour it answer 204 without a body. */
function wantsMinimal(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  return typeof prefer === 'string' && /(^|[\s,;])return=minimal($|[\s,;])/.test(prefer);
}

function minimal(reply: FastifyReply) {
  return reply.header('preference-applied', 'return=minimal').code(204).send();
}

const section = (v: StructureView, id: string) =>
  presentSection(
    v,
    v.structure.sections.find((s) => s.id === id)!,
  );
const siteSpace = (v: StructureView, id: string) =>
  presentSiteSpace(
    v,
    v.structure.siteSpaces.find((s) => s.id === id)!,
  );
const group = (v: StructureView, id: string) =>
  presentSectionGroup(
    v,
    v.structure.groups.find((g) => g.id === id)!,
  );

/** Sections, site spaces, section groups, their moves and the structure sort of a site. */
export async function siteStructureRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const api = (p: { organizationId: string; siteId: string }, rest: string) =>
    deps.urls.api(`/orgs/${p.organizationId}/sites/${p.siteId}/${rest}`);

  // Sections

  r.get(
    `${SITE}/sections`,
    {
      schema: {
        params: siteParamsSchema,
        querystring: listSiteSectionsQuerySchema,
        response: { 200: siteSectionListSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const { view, page } = await sections.listSections(ctx, organizationId, siteId, request.query);
      return { ...page, items: page.items.map((s) => presentSection(view, s)) };
    },
  );

  r.post(
    `${SITE}/sections`,
    { schema: { params: siteParamsSchema, body: createSectionBodySchema, response: { 201: siteSectionSchema } } },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const { view, id } = await sections.addSection(ctx, organizationId, siteId, request.body);
      reply.header('location', api(request.params, `sections/${id}`));
      return reply.code(201).send(section(view, id));
    },
  );

  r.patch(
    `${SITE}/sections/:siteSectionId`,
    {
      schema: { params: siteSectionParamsSchema, body: updateSectionBodySchema, response: { 200: siteSectionSchema } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      const ctx = serviceContext(deps, request);
      const { view, id } = await sections.updateSection(ctx, organizationId, siteId, siteSectionId, request.body);
      return wantsMinimal(request) ? minimal(reply) : section(view, id);
    },
  );

  r.delete(
    `${SITE}/sections/:siteSectionId`,
    { schema: { params: siteSectionParamsSchema } },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      const deleted = await sections.deleteSection(
        serviceContext(deps, request),
        organizationId,
        siteId,
        siteSectionId,
      );
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  r.post(
    `${SITE}/sections/:siteSectionId/move`,
    { schema: { params: siteSectionParamsSchema, body: moveSectionBodySchema, response: { 200: siteSectionSchema } } },
    async (request) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      const p = request.body?.position;
      const position = p && {
        before: p.before && { type: 'site-section' as const, id: p.before.siteSection },
        after: p.after && { type: 'site-section' as const, id: p.after.siteSection },
      };
      const ctx = serviceContext(deps, request);
      const { view, id } = await sections.moveSection(ctx, organizationId, siteId, siteSectionId, position);
      return section(view, id);
    },
  );

  // Site spaces

  r.get(
    `${SITE}/site-spaces`,
    {
      schema: {
        params: siteParamsSchema,
        querystring: listSiteSpacesQuerySchema,
        response: { 200: siteSpaceListSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const { view, page } = await siteSpaces.listSiteSpaces(ctx, organizationId, siteId, request.query);
      return { ...page, items: page.items.map((ss) => presentSiteSpace(view, ss)) };
    },
  );

  r.post(
    `${SITE}/site-spaces`,
    { schema: { params: siteParamsSchema, body: createSiteSpaceBodySchema, response: { 201: siteSpaceSchema } } },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const { view, id } = await siteSpaces.addSiteSpace(ctx, organizationId, siteId, request.body);
      reply.header('location', api(request.params, `site-spaces/${id}`));
      return wantsMinimal(request) ? minimal(reply) : reply.code(201).send(siteSpace(view, id));
    },
  );

  r.patch(
    `${SITE}/site-spaces/:siteSpaceId`,
    { schema: { params: siteSpaceParamsSchema, body: updateSiteSpaceBodySchema, response: { 200: siteSpaceSchema } } },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const ctx = serviceContext(deps, request);
      const { view, id } = await siteSpaces.updateSiteSpace(ctx, organizationId, siteId, siteSpaceId, request.body);
      return wantsMinimal(request) ? minimal(reply) : siteSpace(view, id);
    },
  );

  r.delete(
    `${SITE}/site-spaces/:siteSpaceId`,
    { schema: { params: siteSpaceParamsSchema } },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const deleted = await siteSpaces.deleteSiteSpace(
        serviceContext(deps, request),
        organizationId,
        siteId,
        siteSpaceId,
      );
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  r.post(
    `${SITE}/site-spaces/:siteSpaceId/move`,
    { schema: { params: siteSpaceParamsSchema, body: moveSiteSpaceBodySchema, response: { 200: siteSpaceSchema } } },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const p = request.body?.position;
      const position = p && {
        before: p.before && { type: 'site-space' as const, id: p.before.siteSpace },
        after: p.after && { type: 'site-space' as const, id: p.after.siteSpace },
      };
      const ctx = serviceContext(deps, request);
      const { view, id } = await siteSpaces.moveSiteSpace(ctx, organizationId, siteId, siteSpaceId, position);
      return siteSpace(view, id);
    },
  );

  // Section groups

  r.get(
    `${SITE}/section-groups`,
    {
      schema: {
        params: siteParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: siteSectionGroupListSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { view, page } = await sectionGroups.listGroups(
        serviceContext(deps, request),
        organizationId,
        siteId,
        request.query,
      );
      return { ...page, items: page.items.map((g) => presentSectionGroup(view, g)) };
    },
  );

  r.post(
    `${SITE}/section-groups`,
    {
      schema: {
        params: siteParamsSchema,
        body: createSectionGroupBodySchema,
        response: { 201: siteSectionGroupSchema },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { view, id } = await sectionGroups.addGroup(
        serviceContext(deps, request),
        organizationId,
        siteId,
        request.body,
      );
      reply.header('location', api(request.params, `section-groups/${id}`));
      return reply.code(201).send(group(view, id));
    },
  );

  r.patch(
    `${SITE}/section-groups/:siteSectionGroupId`,
    {
      schema: {
        params: siteSectionGroupParamsSchema,
        body: updateSectionGroupBodySchema,
        response: { 200: siteSectionGroupSchema },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const ctx = serviceContext(deps, request);
      const { view, id } = await sectionGroups.updateGroup(
        ctx,
        organizationId,
        siteId,
        siteSectionGroupId,
        request.body,
      );
      return wantsMinimal(request) ? minimal(reply) : group(view, id);
    },
  );

  r.delete(
    `${SITE}/section-groups/:siteSectionGroupId`,
    { schema: { params: siteSectionGroupParamsSchema } },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const ctx = serviceContext(deps, request);
      const deleted = await sectionGroups.deleteGroup(ctx, organizationId, siteId, siteSectionGroupId);
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  r.post(
    `${SITE}/section-groups/:siteSectionGroupId/sections`,
    {
      schema: {
        params: siteSectionGroupParamsSchema,
        body: addSectionToGroupBodySchema,
        response: { 201: siteSectionGroupSchema },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const ctx = serviceContext(deps, request);
      const { sectionId } = request.body;
      const { view, id } = await sectionGroups.addSectionToGroup(
        ctx,
        organizationId,
        siteId,
        siteSectionGroupId,
        sectionId,
      );
      return reply.code(201).send(group(view, id));
    },
  );

  r.delete(
    `${SITE}/section-groups/:siteSectionGroupId/sections/:siteSectionId`,
    { schema: { params: groupSectionParamsSchema } },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      const ctx = serviceContext(deps, request);
      const removed = await sectionGroups.removeSectionFromGroup(
        ctx,
        organizationId,
        siteId,
        siteSectionGroupId,
        siteSectionId,
      );
      return reply.code(removed ? 205 : 204).send();
    },
  );

  r.post(
    `${SITE}/section-groups/:siteSectionGroupId/move`,
    {
      schema: {
        params: siteSectionGroupParamsSchema,
        body: moveSectionGroupBodySchema,
        response: { 200: siteSectionGroupSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const ctx = serviceContext(deps, request);
      const position = request.body?.position;
      const { view, id } = await sectionGroups.moveGroup(ctx, organizationId, siteId, siteSectionGroupId, position);
      return group(view, id);
    },
  );

  // Structure sort (replaces the moves)

  r.patch(
    `${SITE}/structure/sort`,
    {
      schema: {
        params: siteParamsSchema,
        body: sortSiteStructureBodySchema,
        response: { 200: siteStructureItemSchema },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const { item, position } = request.body;
      const { view, id, type } = await sortStructure(ctx, organizationId, siteId, item, position);
      if (wantsMinimal(request)) return minimal(reply);
      return type === 'site-space'
        ? siteSpace(view, id)
        : type === 'site-section'
          ? section(view, id)
          : group(view, id);
    },
  );
}
