import type { EmailRow } from '../storage/repos/mail.js';
import type { OutboxItem, OutboxMessage } from '../../shared/contract/mail.js';

type ListedEmail = Pick<
  EmailRow,
  'id' | 'category' | 'kind' | 'to_address' | 'subject' | 'state' | 'attempts' | 'last_error' | 'created_at' | 'sent_at'
>;

export function presentOutboxItem(row: ListedEmail): OutboxItem {
  return {
    object: 'email',
    id: row.id,
    category: row.category,
    kind: row.kind,
    to: row.to_address,
    subject: row.subject,
    state: row.state,
    attempts: row.attempts,
    ...(row.last_error ? { lastError: row.last_error } : {}),
    createdAt: row.created_at,
    ...(row.sent_at ? { sentAt: row.sent_at } : {}),
  };
}

export function presentOutboxMessage(row: EmailRow): OutboxMessage {
  return {
    ...presentOutboxItem(row),
    messageId: row.message_id,
    envelopeFrom: row.envelope_from,
    ...(row.smtp_reply ? { smtpReply: row.smtp_reply } : {}),
    ...(row.text_body !== null ? { text: row.text_body } : {}),
    hasHtml: row.html_body !== null,
  };
}
