import type { FastifyInstance } from 'fastify';
import { ping } from '../storage/db.js';
import type { RouteDeps } from './context.js';

export async function healthRoutes(app: FastifyInstance, deps: RouteDeps) {
  app.get('/v1/health', { config: { public: true } }, async () => {
    await ping(deps.db);
    return { status: 'ok' };
  });
}
