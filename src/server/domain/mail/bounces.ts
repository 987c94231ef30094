import { simpleParser, type Attachment } from 'mailparser';
import * as mail from '../../storage/repos/mail.js';
import { nowIso } from '../../lib/time.js';
import { InvalidError } from '../errors.js';
import type { ServiceContext } from '../context.js';
import type { BounceResult } from '../../../shared/contract/mail.js';
import { requireOwner } from './instance.js';

/**
 * Bounces that come back after the relay accepted a message (README, "E-mail"): the operator's mail system hands
 * each delivery status notification (RFC 3464, `multipart/report; report-type=delivery-status`) that reaches the
 * envelope sender's mailbox to `POST /v1/instance/mail/bounces`. The report names the message by its Message-ID
 * (in the returned message or its headers); a permanent failure makes that message `bounced`, with the remote
 * server's words, in the owner's outbox. Refusals during the SMTP exchange itself are already `failed`.
 */

/** The largest report read: a DSN returns at most the original message, which is small here. */
export const BOUNCE_BYTES_MAX = 1024 * 1024;

interface RecipientStatus {
  action: string;
  status?: string;
  diagnostic?: string;
  recipient?: string;
}

/** The fields of a `message/delivery-status` part: per-message fields, then one group per recipient. */
function deliveryStatus(text: string): RecipientStatus[] {
  const groups = text
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]+/g, ' ') // unfolded
    .split(/\n\s*\n/);
  const out: RecipientStatus[] = [];
  for (const group of groups) {
    const fields = new Map<string, string>();
    for (const line of group.split('\n')) {
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (m) fields.set(m[1]!.toLowerCase(), m[2]!.trim());
    }
    const action = fields.get('action')?.toLowerCase();
    if (!action) continue;
    const recipient = (fields.get('final-recipient') ?? fields.get('original-recipient'))?.replace(/^[^;]*;\s*/, '');
    out.push({
      action,
      ...(fields.get('status') ? { status: fields.get('status')! } : {}),
      ...(fields.get('diagnostic-code')
        ? { diagnostic: fields.get('diagnostic-code')!.replace(/^[^;]*;\s*/, '') }
        : {}),
      ...(recipient ? { recipient: recipient.toLowerCase() } : {}),
    });
  }
  return out;
}

const isPart = (a: Attachment, ...types: string[]) => types.includes(a.contentType.toLowerCase());

/** The Message-ID of the returned message (`message/rfc822`, or only its headers, `text/rfc822-headers`). */
function returnedMessageId(attachments: Attachment[]): string | undefined {
  for (const part of attachments) {
    if (!isPart(part, 'message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers')) continue;
    const headers = part.content
      .toString('utf8')
      .replace(/\r\n/g, '\n')
      .split(/\n\n/)[0]!
      .replace(/\n[ \t]+/g, ' ');
    const id = /^Message-ID:\s*(<[^>\s]+>)/im.exec(headers)?.[1];
    if (id) return id;
  }
  return undefined;
}

export async function receiveBounce(ctx: ServiceContext, raw: Buffer): Promise<BounceResult> {
  await requireOwner(ctx);
  if (!raw.length) throw new InvalidError('body', 'is empty: send the bounce message as it arrived (message/rfc822)');
  const parsed = await simpleParser(raw, {
    keepDeliveryStatus: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
  });
  const report = parsed.attachments.find((a) => isPart(a, 'message/delivery-status', 'message/global-delivery-status'));
  if (!report) {
    throw new InvalidError('body', 'is not a delivery status notification (no message/delivery-status part)');
  }
  const statuses = deliveryStatus(report.content.toString('utf8'));
  if (!statuses.length) throw new InvalidError('body', 'its delivery status names no recipient and action');
  const messageId = returnedMessageId(parsed.attachments);
  const row = messageId ? await mail.findEmailByMessageId(ctx.db, messageId) : undefined;
  if (!row) return { matched: false };
  // The recipient's own line, if the report names several; a report of this message names its one recipient.
  const mine = statuses.find((s) => s.recipient === row.to_address) ?? statuses[0]!;
  const base = { matched: true, id: row.id, action: mine.action, ...(mine.status ? { status: mine.status } : {}) };
  if (mine.action !== 'failed') return { ...base, state: row.state };
  const words = [mine.status, mine.diagnostic].filter(Boolean).join(' ');
  const moved = await mail.moveEmail(ctx.db, row.id, ['sent', 'uncertain', 'bounced'], {
    state: 'bounced',
    last_error: `Bounced${words ? `: ${words}` : ''}`.slice(0, 1000),
    updated_at: nowIso(),
  });
  return { ...base, state: moved ? 'bounced' : row.state };
}
