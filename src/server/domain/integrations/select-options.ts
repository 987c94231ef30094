import type { IntegrationRow } from '../../storage/repos/integrations.js';
import type { DispatchDeps } from './delivery.js';
import { serveIntegrationEndpoint } from './endpoints.js';

/**
 * ContentKit selects whose `options` are `{url}` (GitBook's dynamic options: GitHub's and GitLab's settings list
 * accounts, repositories and branches this way) are given their options before a render is answered: the URL is
 * one of the integration's own HTTP endpoints, asked by GET as a browser would (its `fetch` event, without
 * cookies), and the JSON array it answers replaces the URL. Resolved on the server, the options reach the console,
 * the editor and published sites alike, and no browser has to call the integrations' origin across origins.
 *
 * Bounded: the selects of one render ask at most SELECTS_MAX endpoints, together, each for OPTIONS_DEADLINE_MS;
 * an answer is read up to OPTIONS_BYTES_MAX and OPTIONS_MAX options. An endpoint of another integration, a failure
 * or a wrong answer gives no options and says so in the select's placeholder.
 */
export const SELECTS_MAX = 8;
export const OPTIONS_DEADLINE_MS = 5_000;
export const OPTIONS_BYTES_MAX = 256 * 1024;
export const OPTIONS_MAX = 500;
const TREE_NODES_MAX = 5_000;

type Json = Record<string, unknown>;

interface Option {
  id: string;
  label: string;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The selects of a rendered element whose options are to be fetched (at most SELECTS_MAX, depth first). */
function dynamicSelects(element: unknown): Json[] {
  const found: Json[] = [];
  const stack: unknown[] = [element];
  let seen = 0;
  while (stack.length && found.length < SELECTS_MAX && seen < TREE_NODES_MAX) {
    const node = stack.pop();
    seen += 1;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (!isObject(node)) continue;
    if (node.type === 'select' && isObject(node.options) && 'url' in node.options) found.push(node);
    // Children, and elements held in props (an input's `element`, a card's `body`…).
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return found;
}

/** The endpoint path and query a select names, its `$state` bindings read from the render's state. */
function endpointOf(url: unknown, state: Json): string | undefined {
  if (typeof url === 'string') {
    try {
      const parsed = new URL(url);
      return parsed.pathname + parsed.search;
    } catch {
      return undefined;
    }
  }
  if (!isObject(url) || typeof url.pathname !== 'string') return undefined;
  const query = new URLSearchParams();
  if (isObject(url.query)) {
    for (const [key, raw] of Object.entries(url.query)) {
      const value = isObject(raw) && typeof raw.$state === 'string' ? state[raw.$state] : raw;
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        query.set(key, String(value));
      }
    }
  }
  const search = query.toString();
  return url.pathname + (search ? `?${search}` : '');
}

/**
 * The path (and query) as the endpoint will read it, when it is under the integration's own endpoints: dot segments
 * (`..`, `%2e%2e`) and backslashes resolved first, as the URL parser resolves them, so none leads to another
 * integration's; a NUL or a malformed escape is no path.
 */
function ownPath(path: string | undefined, origin: string, own: string): string | undefined {
  if (path === undefined || path.includes('\u0000') || /%00/.test(path)) return undefined;
  let url: URL;
  try {
    url = new URL(path, origin);
    decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  return url.origin === new URL(origin).origin && url.pathname.startsWith(own) ? url.pathname + url.search : undefined;
}

/** The options an answer holds: `[{id, label}]` (an id alone is its label), or undefined when it holds none. */
function optionsOf(status: number, body: Buffer | string): Option[] | undefined {
  if (status < 200 || status >= 300) return undefined;
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.length > OPTIONS_BYTES_MAX) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const options: Option[] = [];
  for (const item of parsed.slice(0, OPTIONS_MAX)) {
    if (!isObject(item) || (typeof item.id !== 'string' && typeof item.id !== 'number')) continue;
    options.push({ id: String(item.id), label: typeof item.label === 'string' ? item.label : String(item.id) });
  }
  return options;
}

/** Fills in the options of the dynamic selects of a render's output (changed in place). */
export async function resolveSelectOptions(
  deps: DispatchDeps,
  integration: Pick<IntegrationRow, 'name'>,
  output: Json,
): Promise<void> {
  const origin = deps.urls.integrations;
  const selects = dynamicSelects(output.element);
  if (!selects.length) return;
  const state = isObject(output.state) ? output.state : {};
  const own = `/v1/integrations/${encodeURIComponent(integration.name)}/`;
  await Promise.all(
    selects.map(async (select) => {
      const path = origin ? ownPath(endpointOf((select.options as Json).url, state), origin, own) : undefined;
      let options: Option[] | undefined;
      if (origin && path) {
        try {
          const answer = await serveIntegrationEndpoint(
            deps,
            origin,
            { method: 'GET', url: path, headers: { accept: 'application/json' } },
            OPTIONS_DEADLINE_MS,
          );
          options = optionsOf(answer.status, answer.body);
        } catch {
          // (An address the endpoint cannot even look up: no options, as for any failure.)
        }
      }
      select.options = options ?? [];
      if (!options) select.placeholder = 'The choices could not be loaded';
    }),
  );
}
