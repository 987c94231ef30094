import type { Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/openapi.js';
import { LruCache } from '../../lib/lru-cache.js';
import { workers } from '../../workers/pool.js';
import { ALWAYS_IN_A_WORKER } from './service.js';
import type { OperationView } from '../../../shared/contract/openapi.js';
import type { OperationBlock } from '../../../shared/openapi-blocks.js';

/**
 * The operations a page's OpenAPI blocks show, from the latest processed version of each spec of the
 * organization. Versions never change, so what was read of one is kept (by version, method and path) by every
 * process alike; which version is the latest is read each time, and returned as the rendering's dependencies.
 */

/** The spec versions a rendering used, by slug (null: no such spec, or none processed yet). */
export type OperationDeps = Record<string, string | null>;

const cache = new LruCache<OperationView | null>(5000, 16 * 1024 * 1024, (v) => (v ? JSON.stringify(v).length : 1));

async function latestVersions(db: Executor, organizationId: string, slugs: string[]) {
  const specs = await repo.findSpecsBySlug(db, organizationId, [...new Set(slugs)]);
  const deps: OperationDeps = {};
  for (const slug of slugs) deps[slug] = null;
  for (const spec of specs) deps[spec.slug] = spec.last_version_id;
  return { deps, specIdOf: new Map(specs.map((s) => [s.last_version_id, s.id])) };
}

/** The latest version of each spec named, by slug. */
export async function currentDeps(db: Executor, organizationId: string, slugs: string[]): Promise<OperationDeps> {
  return (await latestVersions(db, organizationId, slugs)).deps;
}

export function sameDeps(a: OperationDeps, b: OperationDeps): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

export async function loadOperations(
  db: Executor,
  organizationId: string,
  blocks: OperationBlock[],
): Promise<{ operations: Record<string, OperationView | null>; deps: OperationDeps }> {
  const { deps, specIdOf } = await latestVersions(
    db,
    organizationId,
    blocks.map((b) => b.spec),
  );
  const operations: Record<string, OperationView | null> = {};
  const missing = new Map<string, OperationBlock[]>();
  for (const block of blocks) {
    const version = deps[block.spec];
    if (!version) {
      operations[block.key] = null;
      continue;
    }
    const cached = cache.get(`${version} ${block.method} ${block.path}`);
    if (cached !== undefined) operations[block.key] = cached;
    else missing.set(version, [...(missing.get(version) ?? []), block]);
  }
  for (const [versionId, wanted] of missing) {
    const version = await repo.findVersion(db, specIdOf.get(versionId)!, versionId);
    if (!version) continue;
    const found = await workers.run(
      'openApiOperations',
      { document: version.document, operations: wanted.map((b) => ({ path: b.path, method: b.method })) },
      ALWAYS_IN_A_WORKER,
      { timeoutMs: 10_000 },
    );
    wanted.forEach((block, i) => {
      const view = found[i] ?? null;
      cache.set(`${versionId} ${block.method} ${block.path}`, view);
      operations[block.key] = view;
    });
  }
  for (const block of blocks) operations[block.key] ??= null;
  return { operations, deps };
}
