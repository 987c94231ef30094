import { z } from 'zod';
import { ID_MAX, timestampSchema } from './common.js';
import { listSchema, pagedQuerySchema } from '../pagination.js';

/** How far an outgoing e-mail got (the outbox, for the instance owner). */
export const EMAIL_STATES = [
  'queued',
  'held',
  'sending',
  'sent',
  'failed',
  'uncertain',
  'suppressed',
  'bounced',
] as const;
export const emailStateSchema = z.enum(EMAIL_STATES);
export type EmailState = z.infer<typeof emailStateSchema>;

/** `GET /v1/instance/mail`: whether mail leaves this server, and through which relay. */
export const mailStatusSchema = z.object({
  object: z.literal('mail-status'),
  configured: z.boolean(),
  /** host:port of the relay, when configured. */
  relay: z.string().optional(),
  tls: z.enum(['starttls', 'implicit', 'none']).optional(),
  from: z.string().optional(),
  /** The last failure any message met, for a quick look. */
  lastError: z.object({ message: z.string(), at: timestampSchema }).optional(),
  /** Messages per state. */
  counts: z.record(z.string(), z.number().int()),
});
export type MailStatus = z.infer<typeof mailStatusSchema>;

export const outboxItemSchema = z.object({
  object: z.literal('email'),
  id: z.string(),
  category: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  state: emailStateSchema,
  attempts: z.number().int(),
  lastError: z.string().optional(),
  createdAt: timestampSchema,
  sentAt: timestampSchema.optional(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;
export const outboxListSchema = listSchema(outboxItemSchema);
export type OutboxList = z.infer<typeof outboxListSchema>;

export const outboxQuerySchema = pagedQuerySchema.extend({
  state: emailStateSchema.optional(),
  to: z.string().max(254).optional(),
});

export const outboxParamsSchema = z.object({ messageId: z.string().min(1).max(ID_MAX) });

/** One message in full: its headers and its plain text (the HTML part is served on its own, sandboxed). */
export const outboxMessageSchema = outboxItemSchema.extend({
  messageId: z.string(),
  /** The sender address of the envelope (MAIL FROM): where bounces go. */
  envelopeFrom: z.string(),
  smtpReply: z.string().optional(),
  /** The plain text part; absent once a security message was sent (its link is not kept). */
  text: z.string().optional(),
  hasHtml: z.boolean(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** `POST /v1/instance/mail/bounces`: what a delivery status notification said of which message. */
export const bounceResultSchema = z.object({
  /** Whether it names a message of this outbox. */
  matched: z.boolean(),
  /** The outbox message it concerns. */
  id: z.string().optional(),
  /** `failed` (the message is then `bounced`) or `delayed` (it stays as it was). */
  action: z.string().optional(),
  /** The enhanced status code, e.g. `5.1.1`. */
  status: z.string().optional(),
  state: emailStateSchema.optional(),
});
export type BounceResult = z.infer<typeof bounceResultSchema>;
