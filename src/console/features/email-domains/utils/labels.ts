import type { EmailDomainEntry } from '../../../../shared/contract';

/** How a verified domain was verified, in words. */
export function verifiedHow(entry: Pick<EmailDomainEntry, 'verifiedBy'>): string {
  return entry.verifiedBy === 'owner' ? 'vouched for by the instance owner' : 'proven by its DNS TXT record';
}

/** Verified domains first, then by name: what needs doing (publishing a record) comes last, together. */
export function sortDomains<T extends Pick<EmailDomainEntry, 'domain' | 'verified'>>(entries: T[]): T[] {
  return [...entries].sort((a, b) => Number(b.verified) - Number(a.verified) || a.domain.localeCompare(b.domain));
}
