/** The console address that joins an organization through an invite link: `/join/{organizationId}/{inviteId}`. */
export function inviteUrl(origin: string, organizationId: string, inviteId: string): string {
  return `${origin.replace(/\/+$/, '')}/join/${encodeURIComponent(organizationId)}/${encodeURIComponent(inviteId)}`;
}
