import type { Db } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import * as mail from '../../storage/repos/mail.js';
import * as users from '../../storage/repos/users.js';
import { keysetPage } from '../../storage/pagination.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ServiceContext } from '../context.js';
import { EMAIL_STATES, type EmailState } from '../../../shared/contract/mail.js';
import { resendEmail, type MailSettings } from './outbox.js';

/**
 * The instance owner's outbox: every message the server wrote, its state and its last error; without SMTP, the
 * place where the owner reads a held message (a reset link to pass on). Only the instance owner: anyone else is
 * told there is no such thing (404), as for any resource they may not know of.
 */

export async function requireOwner(ctx: ServiceContext): Promise<void> {
  const caller = await users.findUserById(ctx.db, ctx.actor.userId);
  if (!caller?.instance_owner) throw new NotFoundError('Not found');
}

export async function mailStatus(ctx: ServiceContext, settings: MailSettings) {
  await requireOwner(ctx);
  const counts: Record<string, number> = {};
  for (const state of EMAIL_STATES) {
    const n = await mail.countEmails(ctx.db, { state });
    if (n) counts[state] = n;
  }
  const last = await mail.lastEmailFailure(ctx.db);
  return { smtp: settings.smtp, counts, last };
}

export async function listOutbox(
  ctx: ServiceContext,
  filter: { state?: EmailState | undefined; to?: string | undefined },
  page: string | undefined,
  limit: number,
) {
  await requireOwner(ctx);
  const f = { ...(filter.state ? { state: filter.state } : {}), ...(filter.to ? { to: filter.to } : {}) };
  return keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => mail.listEmails(ctx.db, f, after, take),
    count: () => mail.countEmails(ctx.db, f),
    key: (row) => [row.created_at, row.id],
  });
}

export async function getOutboxMessage(ctx: ServiceContext, id: string) {
  await requireOwner(ctx);
  const row = await mail.findEmail(ctx.db, id);
  if (!row) throw new NotFoundError('Message not found');
  return row;
}

export async function resendOutboxMessage(ctx: ServiceContext & { db: Db }, settings: MailSettings, id: string) {
  await getOutboxMessage(ctx, id);
  if (!settings.smtp) throw new ConflictError('SMTP is not configured: set SMTP_HOST and restart to send mail');
  const moved = await transaction(ctx.db, (tx) => resendEmail(tx, settings, id));
  if (!moved) throw new ConflictError('Only a held, failed or uncertain message can be sent again');
  wakeJobQueues();
  return (await mail.findEmail(ctx.db, id))!;
}
