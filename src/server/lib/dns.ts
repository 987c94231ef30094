import { promises as dns } from 'node:dns';

/**
 * TXT look-ups for e-mail domain verification. `servers` (DNS_SERVERS) points them at given resolvers, as
 * `ip` or `ip:port` (tests run a local DNS answer); without it the system's resolvers answer.
 */
export type TxtLookup = (name: string) => Promise<string[]>;

export function txtLookup(servers: string[] = []): TxtLookup {
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
  if (servers.length) resolver.setServers(servers);
  return async (name) => {
    try {
      const records = await resolver.resolveTxt(name);
      return records.map((chunks) => chunks.join(''));
    } catch (err) {
      const code = (err as { code?: string }).code;
      // No such name or no TXT record: nothing published (other failures are reported as such).
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      throw err;
    }
  };
}
