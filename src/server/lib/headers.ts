/**
 * HTTP headers as one string each (a repeated header's values joined with ", ", as HTTP allows), without those
 * `drop` names: what is passed on between our server, the guarded fetch and integrations' scripts.
 */
export function flatHeaders(
  raw: Record<string, string | string[] | number | undefined>,
  drop: (name: string) => boolean = () => false,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || drop(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}
