/**
 * Revisions this console made itself, and the pages each one touched. The editor bases its saves on the
 * revision it loaded (If-Match); when the change request moves on only through this console's own edits to
 * other pages (a page added or moved in the sidebar), the editor's unsaved text is still based on the same page,
 * and it may adopt the new revision instead of reporting a conflict with itself.
 */
const lineage = new Map<string, { from: string; pages: ReadonlySet<string>; origin?: string }>();
const MAX_ENTRIES = 500;

/** `origin` names the part of the console that made the edit (an editor), which knows what it changed. */
export function recordOwnEdit(from: string, to: string, pages: Iterable<string>, origin?: string): void {
  lineage.set(to, { from, pages: new Set(pages), origin });
  if (lineage.size > MAX_ENTRIES) {
    const oldest = lineage.keys().next().value;
    if (oldest !== undefined) lineage.delete(oldest);
  }
}

/**
 * Whether `to` follows `from` through this console's own edits only, none of which touched `pageId` unless it
 * came from `origin` itself.
 */
export function onlyOwnEditsElsewhere(from: string, to: string, pageId: string, origin?: string): boolean {
  let current = to;
  for (let steps = 0; current !== from; steps++) {
    const step = lineage.get(current);
    if (!step || steps > MAX_ENTRIES) return false;
    if (step.pages.has(pageId) && (origin === undefined || step.origin !== origin)) return false;
    current = step.from;
  }
  return true;
}
