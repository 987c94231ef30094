import http from 'node:http';
import { startSmtpServer } from '../src/server/test/smtp-server';

/**
 * The journeys' mailbox: a real SMTP server the e2e server delivers to (SMTP_HOST/SMTP_PORT in
 * playwright.config.ts), and an HTTP reader the journeys ask for what arrived: `GET /messages?to=<address>` answers
 * `[{messageId, subject, text, html, to}]`, oldest first. Journeys share it, so each reads only its own addresses
 * (every journey signs people up with addresses of its own). Started by Playwright before the server.
 */
const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT);
/** Messages kept; older ones are dropped. */
const KEEP = 5000;

const smtp = await startSmtpServer({}, smtpPort);
const reader = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://sink');
  if (url.pathname === '/health') return void response.end('ok');
  if (url.pathname !== '/messages') return void response.writeHead(404).end();
  if (smtp.messages.length > KEEP) smtp.messages.splice(0, smtp.messages.length - KEEP);
  const to = url.searchParams.get('to')?.toLowerCase();
  const found = (to ? smtp.to(to) : smtp.messages).map((m) => ({
    messageId: m.mail.messageId,
    subject: m.mail.subject,
    text: m.mail.text,
    html: m.mail.html || undefined,
    to: m.envelope.to,
  }));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
});
reader.listen(httpPort, '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    reader.close();
    void smtp.close().then(() => process.exit(0));
  });
}
