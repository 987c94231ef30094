import { toHtml } from 'hast-util-to-html';
import type { Element, ElementContent, Root } from 'hast';

/**
 * The e-mails the server writes: one layout (plain text, and simple HTML with inline styles that mail clients
 * keep), and one function per kind of message. HTML is built as a tree and serialized by hast-util-to-html, so
 * every name, title and address in it is escaped. Only English ships (messages are in `en` below); a catalogue
 * per language takes the same shape.
 */

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailLayout {
  subject: string;
  /** Shown above the message: the product or the organization's name. */
  brand: string;
  /** An https URL of the organization's logo. */
  logo?: string;
  heading: string;
  paragraphs: string[];
  button?: { label: string; url: string };
  /** After the button: what to do if it wasn't you, how long the link works. */
  after?: string[];
  /** Why the person got this message. */
  footer: string;
}

function el(
  tagName: string,
  style: string,
  children: ElementContent[],
  properties: Record<string, string> = {},
): Element {
  return { type: 'element', tagName, properties: { style, ...properties }, children };
}
const t = (value: string): ElementContent => ({ type: 'text', value });

export function renderMail(m: MailLayout): RenderedMail {
  const text = [
    m.heading,
    '',
    ...m.paragraphs.flatMap((p) => [p, '']),
    ...(m.button ? [`${m.button.label}: ${m.button.url}`, ''] : []),
    ...(m.after ?? []).flatMap((p) => [p, '']),
    '-- ',
    m.footer,
  ].join('\n');
  const para = (p: string) => el('p', 'margin:0 0 16px;line-height:1.5', [t(p)]);
  const card = el('div', 'max-width:560px;margin:0 auto;padding:32px;background:#fff;border-radius:8px', [
    el('p', 'margin:0 0 24px;font-size:14px;color:#57606a', [
      ...(m.logo && m.logo.startsWith('https://')
        ? [
            el('img', 'height:24px;vertical-align:middle;margin-right:8px', [], {
              src: m.logo,
              alt: '',
              height: '24',
            }),
          ]
        : []),
      t(m.brand),
    ]),
    el('h1', 'margin:0 0 16px;font-size:20px;line-height:1.3;color:#1f2328', [t(m.heading)]),
    ...m.paragraphs.map(para),
    ...(m.button
      ? [
          el('p', 'margin:24px 0', [
            el(
              'a',
              'display:inline-block;padding:10px 18px;background:#0969da;color:#fff;text-decoration:none;border-radius:6px;font-weight:600',
              [t(m.button.label)],
              { href: m.button.url },
            ),
          ]),
          el('p', 'margin:0 0 16px;font-size:13px;color:#57606a;word-break:break-all', [
            t('Or open this address: '),
            t(m.button.url),
          ]),
        ]
      : []),
    ...(m.after ?? []).map(para),
    el('hr', 'border:none;border-top:1px solid #d0d7de;margin:24px 0 16px', []),
    el('p', 'margin:0;font-size:12px;color:#57606a', [t(m.footer)]),
  ]);
  const root: Root = {
    type: 'root',
    children: [
      { type: 'doctype' },
      el('html', '', [
        el('head', '', [
          el('meta', '', [], { charset: 'utf-8' }),
          el('meta', '', [], { name: 'viewport', content: 'width=device-width' }),
          el('title', '', [t(m.subject)]),
        ]),
        el(
          'body',
          'margin:0;padding:24px 12px;background:#f6f8fa;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;color:#1f2328',
          [card],
        ),
      ]),
    ],
  };
  return { subject: m.subject, text, html: toHtml(root) };
}

/** The product's name in mail (the organization's, once a message belongs to one). */
export const PRODUCT = 'Docspace';

const SECURITY_FOOTER =
  'You received this security message because someone used your address on this documentation server. It is sent whatever your notification settings.';

export const en = {
  passwordReset: (p: { url: string; minutes: number; serverUrl: string }) =>
    renderMail({
      subject: 'Reset your password',
      brand: PRODUCT,
      heading: 'Reset your password',
      paragraphs: [`Someone asked to reset the password of the account with this address on ${p.serverUrl}.`],
      button: { label: 'Choose a new password', url: p.url },
      after: [
        `The link works once, for ${p.minutes} minutes. Using it signs the account out everywhere else.`,
        "If it wasn't you, ignore this message: your password stays as it is.",
      ],
      footer: SECURITY_FOOTER,
    }),
  passwordResetSso: (p: { serverUrl: string; loginUrl: string }) =>
    renderMail({
      subject: 'Your account has no password',
      brand: PRODUCT,
      heading: 'Your account signs in through single sign-on',
      paragraphs: [
        `Someone asked to reset the password of the account with this address on ${p.serverUrl}.`,
        "This account has no password: it signs in through your organization's identity provider, so there is none to reset.",
      ],
      button: { label: 'Sign in', url: p.loginUrl },
      after: ["If it wasn't you, ignore this message."],
      footer: SECURITY_FOOTER,
    }),
  passwordWasReset: (p: { serverUrl: string; at: string; tokens: number; accountUrl: string }) =>
    renderMail({
      subject: 'Your password was reset',
      brand: PRODUCT,
      heading: 'Your password was reset',
      paragraphs: [
        `The password of your account on ${p.serverUrl} was reset with a link sent to this address (${p.at} UTC). Every other session was signed out.`,
        p.tokens === 0
          ? 'The account has no API tokens.'
          : p.tokens === 1
            ? 'One API token of the account still works: review it on your account page.'
            : `${p.tokens} API tokens of the account still work: review them on your account page.`,
      ],
      button: { label: 'Open your account', url: p.accountUrl },
      after: ["If it wasn't you, reset your password again at once and revoke the API tokens you don't recognize."],
      footer: SECURITY_FOOTER,
    }),
  verifyEmail: (p: { url: string; hours: number; serverUrl: string; name: string }) =>
    renderMail({
      subject: 'Confirm your e-mail address',
      brand: PRODUCT,
      heading: 'Confirm your e-mail address',
      paragraphs: [
        `Hello ${p.name}, confirm that this address is yours to finish setting up your account on ${p.serverUrl}. Until then, invitations sent to it wait.`,
      ],
      button: { label: 'Confirm my address', url: p.url },
      after: [
        `The link works for ${p.hours} hours.`,
        "If you didn't create this account, ignore this message: nothing is confirmed without you.",
      ],
      footer: SECURITY_FOOTER,
    }),
  confirmNewEmail: (p: { url: string; hours: number; serverUrl: string; name: string }) =>
    renderMail({
      subject: 'Confirm your new e-mail address',
      brand: PRODUCT,
      heading: 'Confirm your new e-mail address',
      paragraphs: [`Hello ${p.name}, confirm that your account on ${p.serverUrl} should use this address from now on.`],
      button: { label: 'Use this address', url: p.url },
      after: [
        `The link works for ${p.hours} hours. Until you follow it, the account keeps its current address.`,
        "If you didn't ask for this, ignore this message.",
      ],
      footer: SECURITY_FOOTER,
    }),
  emailChangeRequested: (p: { serverUrl: string; newAddress: string; resetUrl: string }) =>
    renderMail({
      subject: 'A change of your e-mail address was asked for',
      brand: PRODUCT,
      heading: 'A change of your e-mail address was asked for',
      paragraphs: [
        `Someone signed in to your account on ${p.serverUrl} asked to move it to ${p.newAddress}. Nothing changes until that address confirms.`,
      ],
      button: { label: "It wasn't me: reset my password", url: p.resetUrl },
      footer: SECURITY_FOOTER,
    }),
  emailChanged: (p: { serverUrl: string; newAddress: string; resetUrl: string }) =>
    renderMail({
      subject: 'Your e-mail address was changed',
      brand: PRODUCT,
      heading: 'Your e-mail address was changed',
      paragraphs: [
        `Your account on ${p.serverUrl} now uses ${p.newAddress}; this address no longer signs in to it. Its other sessions were signed out.`,
      ],
      button: { label: "It wasn't me: get help", url: p.resetUrl },
      after: ['If you did not ask for this, contact the administrator of the server at once.'],
      footer: SECURITY_FOOTER,
    }),
  invitation: (p: {
    organization: string;
    logo?: string | undefined;
    inviter: string;
    role: string;
    url: string;
    days: number;
    serverUrl: string;
  }) =>
    renderMail({
      subject: `${p.inviter} invited you to ${p.organization}`,
      brand: p.organization,
      ...(p.logo ? { logo: p.logo } : {}),
      heading: `Join ${p.organization}`,
      paragraphs: [
        `${p.inviter} invited you to join ${p.organization} on ${p.serverUrl}, with the ${p.role} role, to read and write its documentation.`,
      ],
      button: { label: 'Open the invitation', url: p.url },
      after: [
        `The invitation works for ${p.days} days. You can accept it with an account of this address, or create one from the link.`,
        "If you don't know who sent it, ignore this message.",
      ],
      footer: `You received this because ${p.inviter} typed your address to invite you. Nothing else is sent unless you join.`,
    }),
  notification: (p: {
    organization: string;
    logo?: string | undefined;
    summary: string;
    excerpt?: string | undefined;
    url?: string | undefined;
    reason: string;
    settingsUrl: string;
  }) =>
    renderMail({
      subject: p.summary,
      brand: p.organization,
      ...(p.logo ? { logo: p.logo } : {}),
      heading: p.summary,
      paragraphs: p.excerpt ? [`“${p.excerpt}”`] : [],
      ...(p.url ? { button: { label: 'Open it', url: p.url } } : {}),
      footer: `You received this because ${p.reason}. Choose what you receive, and how, in your notification settings: ${p.settingsUrl}`,
    }),
  digest: (p: {
    count: number;
    items: Array<{ summary: string; excerpt?: string | undefined; url?: string | undefined }>;
    settingsUrl: string;
    inboxUrl: string;
  }) =>
    renderMail({
      subject: p.count === 1 ? 'One notification today' : `${p.count} notifications today`,
      brand: PRODUCT,
      heading: p.count === 1 ? 'What happened today' : `${p.count} things happened today`,
      paragraphs: p.items.map(
        (i) => `• ${i.summary}${i.excerpt ? `: “${i.excerpt}”` : ''}${i.url ? ` (${i.url})` : ''}`,
      ),
      button: { label: 'Open your inbox', url: p.inboxUrl },
      footer: `This is your daily digest of notifications you chose to receive this way. Change it in your notification settings: ${p.settingsUrl}`,
    }),
};
