/** The console address that joins an organization through an invite link: `/join/{organizationId}/{inviteId}`. */
export function inviteUrl(origin: string, organizationId: string, inviteId: string): string {
  return `${origin.replace(/\/+$/, '')}/join/${encodeURIComponent(organizationId)}/${encodeURIComponent(inviteId)}`;
}

/**
 * The addresses typed or pasted into "Invite by e-mail": separated by commas, semicolons, spaces or lines; a
 * "Name <address>" entry (as mail programs copy it) gives its address; each address once (case does not matter),
 * in the order given. Whatever else is there is kept, for the form to refuse by name.
 */
export function parseEmailList(text: string): string[] {
  const addresses = text.replace(/[^<>,;\n]*<([^<>]*)>/g, ' $1 ');
  const seen = new Set<string>();
  const emails: string[] = [];
  for (const raw of addresses.split(/[\s,;]+/)) {
    const entry = raw.replace(/^["'(]+|["')]+$/g, '');
    const key = entry.toLowerCase();
    if (!entry || seen.has(key)) continue;
    seen.add(key);
    emails.push(entry);
  }
  return emails;
}

export interface InviteOutcome {
  /** Invitations created. */
  invited: number;
  /** Addresses of members, or of people invited already: left as they were. */
  unchanged: number;
  /** Addresses with no account here: nothing was sent. */
  unknownEmails: string[];
}

/** What an invitation by e-mail did, from the addresses sent and the server's answer. */
export function inviteOutcome(sent: string[], result: { invited: number; unknownEmails: string[] }): InviteOutcome {
  return {
    invited: result.invited,
    unchanged: Math.max(0, sent.length - result.unknownEmails.length - result.invited),
    unknownEmails: result.unknownEmails,
  };
}
