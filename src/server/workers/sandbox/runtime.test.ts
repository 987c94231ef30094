import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegrationRuntime, RuntimeError, sandboxClientAddress, type ProcessKey } from './runtime.js';

/**
 * The supervised workerd runtime with real workerd processes: a script answers events as GitBook's runtime does
 * (multipart `event` + `environment` to `/v1`), logs reach the invocation, an endless loop or an allocation without
 * bound stops only its own process (another organization's keeps answering), the scripts' requests go only where
 * the egress rules let them.
 */

/** A module worker speaking the dispatcher's protocol, as `@gitbook/runtime` scripts do. */
const SCRIPT = `export default {
  async fetch(request) {
    if (new URL(request.url).pathname !== '/v1') return new Response('Unsupported version', { status: 400 });
    const form = await request.formData();
    const event = JSON.parse(form.get('event'));
    const environment = JSON.parse(form.get('environment'));
    console.log('[' + event.eventId + '] ' + event.type);
    switch (event.type) {
      case 'installation_setup':
        return Response.json({ seen: event.type, org: environment.installation.target.organization });
      case 'spin':
        while (true) {}
      case 'allocate': {
        const keep = [];
        while (true) keep.push(new Array(1e6).fill(keep.length));
      }
      case 'throw':
        throw new Error('handler failed');
      case 'call': {
        try {
          const res = await fetch(event.url, { method: 'POST', body: 'ping', headers: { 'x-from': 'script' } });
          return new Response(res.status + ' ' + (await res.text()));
        } catch (err) {
          return new Response('fetch failed: ' + err.name + ': ' + err.message);
        }
      }
      default:
        return new Response('Integration does not handle "' + event.type + '" events', { status: 406 });
    }
  },
};
`;

const key = (organizationId: string, version = 1): ProcessKey => ({ integration: 'recorder', version, organizationId });
let n = 0;
const invocation = (type: string, extra: Record<string, unknown> = {}, deadlineMs = 5_000) => ({
  event: { eventId: `ev${++n}`, type, ...extra },
  environment: { installation: { target: { organization: 'org-a' } } },
  deadlineMs,
});

/** A plain HTTP server on loopback that records what reaches it and answers "pong". */
async function startPeer() {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${req.headers['x-from']} ${body}`);
      res.end('pong');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('integrations runtime (workerd)', () => {
  let runtime: IntegrationRuntime;
  let peer: Awaited<ReturnType<typeof startPeer>>;
  const warnings: string[] = [];
  beforeAll(async () => {
    peer = await startPeer();
    runtime = new IntegrationRuntime({
      heapMb: 64,
      api: {
        origin: 'https://docs.test',
        handle: async (request) => ({
          status: 200,
          headers: { 'content-type': 'text/plain' },
          data: Buffer.from(
            `api saw ${request.method} ${new URL(request.url).pathname} ${request.body?.toString()} from ${request.from.organizationId}`,
          ),
        }),
      },
      log: (level, message) => level === 'warn' && warnings.push(message),
    });
  });
  afterAll(async () => {
    await runtime.close();
    await peer.close();
  });

  it('answers an event with what the script returns, its logs with it; unhandled types are 406', async () => {
    const result = await runtime.invoke(key('org-a'), async () => SCRIPT, invocation('installation_setup'));
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body.toString())).toEqual({ seen: 'installation_setup', org: 'org-a' });
    expect(result.logs.map((l) => l.message)).toEqual([`[ev${n}] installation_setup`]);
    const unhandled = await runtime.invoke(key('org-a'), async () => SCRIPT, invocation('page_feedback'));
    expect(unhandled.status).toBe(406);
    const thrown = await runtime.invoke(key('org-a'), async () => SCRIPT, invocation('throw'));
    expect(thrown.status).toBe(500);
    expect(thrown.logs.some((l) => l.level === 'error' && /handler failed/.test(l.message))).toBe(true);
    expect(runtime.processes()).toHaveLength(1);
  });

  it('kills a process that spins, while another organization’s keeps answering; the next use starts afresh', async () => {
    await runtime.invoke(key('org-b'), async () => SCRIPT, invocation('installation_setup'));
    const before = runtime.processes().find((p) => p.key.organizationId === 'org-a')?.pid;
    const spinning = runtime.invoke(key('org-a'), async () => SCRIPT, invocation('spin', {}, 3_000));
    let spinEnded = false;
    spinning.catch(() => (spinEnded = true));
    // While org-a's script spins, org-b's answers: before the spinning one is given up.
    const other = await runtime.invoke(key('org-b'), async () => SCRIPT, invocation('installation_setup'));
    expect(other.status).toBe(200);
    expect(spinEnded).toBe(false);
    await expect(spinning).rejects.toThrow(RuntimeError);
    await expect(spinning).rejects.toThrow(/did not answer within 3 s/);
    const again = await runtime.invoke(key('org-a'), async () => SCRIPT, invocation('installation_setup'));
    expect(again.status).toBe(200);
    const after = runtime.processes().find((p) => p.key.organizationId === 'org-a')?.pid;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(warnings.some((w) => /org-a\/recorder@1: runtime killed, it missed its deadline/.test(w))).toBe(true);
  });

  it('loses only its own process to an allocation without bound', async () => {
    const failed = runtime.invoke(key('org-c'), async () => SCRIPT, invocation('allocate', {}, 20_000));
    await expect(failed).rejects.toThrow(RuntimeError);
    const other = await runtime.invoke(key('org-b'), async () => SCRIPT, invocation('installation_setup'));
    expect(other.status).toBe(200);
    expect(runtime.processes().map((p) => p.key.organizationId)).not.toContain('org-c');
  });

  it('lets scripts reach our API in process, and refuses private addresses', async () => {
    const api = await runtime.invoke(
      key('org-a'),
      async () => SCRIPT,
      invocation('call', { url: 'https://docs.test/v1/x' }),
    );
    expect(api.body.toString()).toBe('200 api saw POST /v1/x ping from org-a');
    expect(sandboxClientAddress(key('org-a'))).toMatch(/^2001:db8(:[0-9a-f]{4}){6}$/);
    expect(sandboxClientAddress(key('org-a'))).not.toBe(sandboxClientAddress(key('org-b')));
    const local = await runtime.invoke(
      key('org-a'),
      async () => SCRIPT,
      invocation('call', { url: `${peer.url}/hook` }),
    );
    // Its fetch() fails, as a network error does in Workers: no answer to read as the address's.
    expect(local.body.toString()).toMatch(
      /^fetch failed: TypeError: Refused by the integrations egress: 127\.0\.0\.1 is a private or local address/,
    );
    expect(peer.received).toEqual([]);
  });

  it('stops the process of an older version when a new one is used', async () => {
    await runtime.invoke(key('org-d', 1), async () => SCRIPT, invocation('installation_setup'));
    await runtime.invoke(key('org-d', 2), async () => SCRIPT, invocation('installation_setup'));
    expect(
      runtime
        .processes()
        .filter((p) => p.key.organizationId === 'org-d')
        .map((p) => p.key.version),
    ).toEqual([2]);
  });
});

describe('integrations runtime egress rules', () => {
  it('reaches an allowed address with the script’s method, headers and body; nothing when egress is off', async () => {
    const peer = await startPeer();
    const url = `${peer.url}/hook`;
    const open = new IntegrationRuntime({ allowPrivate: ['127.0.0.0/8'] });
    const off = new IntegrationRuntime({ allowPrivate: ['127.0.0.0/8'], egress: false });
    try {
      const reached = await open.invoke(key('org-a'), async () => SCRIPT, invocation('call', { url }));
      expect(reached.body.toString()).toBe('200 pong');
      expect(peer.received).toEqual(['POST /hook script ping']);
      const refused = await off.invoke(key('org-a'), async () => SCRIPT, invocation('call', { url }));
      expect(refused.body.toString()).toMatch(/^fetch failed: TypeError: .*outgoing requests are turned off/);
      expect(peer.received).toHaveLength(1);
    } finally {
      await Promise.all([open.close(), off.close()]);
      await peer.close();
    }
  });
});
