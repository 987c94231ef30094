import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

/**
 * A tiny authoritative DNS server for tests (UDP on 127.0.0.1, a random port): it answers TXT questions from
 * the records set here, NXDOMAIN for any other name, and counts every question it receives, so a test can
 * check that the server under test looked something up, or did not.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for `config.dnsServers`. */
  address: string;
  /** The names asked, in order (lower case), any type. */
  queries: string[];
  /** Publishes TXT records for a name (replacing those it had); no values removes the name. */
  setTxt(name: string, ...values: string[]): void;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, string[]>();
  const queries: string[] = [];
  const socket = dgram.createSocket('udp4');

  socket.on('message', (message, remote) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    queries.push(name);
    const values = records.get(name);
    const answers: dnsPacket.Answer[] =
      values && question.type === 'TXT'
        ? values.map((value) => ({ type: 'TXT', name: question.name, ttl: 0, class: 'IN', data: value }))
        : [];
    const NXDOMAIN = 3;
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | (values ? 0 : NXDOMAIN),
      questions: [question],
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });

  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    setTxt(name, ...values) {
      if (values.length) records.set(name.toLowerCase(), values);
      else records.delete(name.toLowerCase());
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
