/**
 * What a workerd process of one integration is made of (docs/design/integrations-runtime.md): the integration's
 * published script, whose every `fetch()` goes to `outbound` (its only way out), and `tail`, which receives each
 * invocation's logs; both hand what they carry to the supervisor's egress server on loopback, with the process's
 * secret. The script is a separate worker: it never sees the secret nor the egress address.
 */

/** As `gitbook publish` builds scripts (the CLI's own settings). */
export const COMPATIBILITY_DATE = '2025-05-25';

const OUTBOUND_JS = `export default {
  async fetch(request, env) {
    const headers = new Headers(request.headers);
    headers.set('x-egress-url', request.url);
    headers.set('x-egress-method', request.method);
    headers.set('x-egress-secret', env.SECRET);
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
    const res = await env.EGRESS.fetch('http://egress/out', { method: 'POST', headers, body });
    // Refused or unreachable: the script's fetch() fails, as a network error does in Workers.
    if (res.headers.get('x-egress-error')) throw new TypeError(await res.text());
    return res;
  },
};
`;

const TAIL_JS = `const text = (m) => (typeof m === 'string' ? m : JSON.stringify(m));
export default {
  async tail(events, env) {
    const items = events.map((ev) => ({
      url: ev.event && ev.event.request ? ev.event.request.url : null,
      outcome: ev.outcome,
      logs: (ev.logs || []).map((l) => ({ level: l.level, timestamp: l.timestamp, message: (l.message || []).map(text).join(' ') })),
      exceptions: (ev.exceptions || []).map((e) => e.name + ': ' + e.message),
    }));
    await env.EGRESS.fetch('http://egress/logs', {
      method: 'POST',
      headers: { 'x-egress-secret': env.SECRET, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
  },
};
`;

/** A capnp text string literal. */
const capnpString = (value: string) => JSON.stringify(value);

export interface ProcessFiles {
  'config.capnp': string;
  'script.js': string;
  'outbound.js': string;
  'tail.js': string;
}

/** The files of one process: its config (embedding the three modules beside it) and the modules. */
export function processFiles(options: {
  script: string;
  secret: string;
  egressPort: number;
  heapMb: number;
}): ProcessFiles {
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "integration", worker = .integration),
    (name = "outbound", worker = .outbound),
    (name = "tail", worker = .tail),
    (name = "egress", external = (address = ${capnpString(`127.0.0.1:${options.egressPort}`)}, http = ())),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "integration") ],
  v8Flags = [ ${capnpString(`--max-old-space-size=${options.heapMb}`)} ],
);

const integration :Workerd.Worker = (
  modules = [ (name = "script.js", esModule = embed "script.js") ],
  compatibilityDate = ${capnpString(COMPATIBILITY_DATE)},
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "outbound",
  tails = ["tail"],
);

const outbound :Workerd.Worker = (
  modules = [ (name = "outbound.js", esModule = embed "outbound.js") ],
  compatibilityDate = ${capnpString(COMPATIBILITY_DATE)},
  bindings = [ (name = "EGRESS", service = "egress"), (name = "SECRET", text = ${capnpString(options.secret)}) ],
);

const tail :Workerd.Worker = (
  modules = [ (name = "tail.js", esModule = embed "tail.js") ],
  compatibilityDate = ${capnpString(COMPATIBILITY_DATE)},
  bindings = [ (name = "EGRESS", service = "egress"), (name = "SECRET", text = ${capnpString(options.secret)}) ],
);
`;
  return { 'config.capnp': config, 'script.js': options.script, 'outbound.js': OUTBOUND_JS, 'tail.js': TAIL_JS };
}
