import * as Y from 'yjs';
import { getSchema, type JSONContent } from '@tiptap/core';
import { yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { COLLAB_FIELD } from '../../../shared/contract/collab.js';
import { editorExtensions, PageMarkdown } from '../../../shared/editor/markdown-blocks.js';

/**
 * A shared document ↔ its page's markdown, for the worker pool (workers/tasks.ts): reading a page of 80 KB into the
 * editor's blocks takes a few hundred milliseconds the first time, which the event loop must not spend.
 */

const schema = getSchema(editorExtensions());
// One per thread: it keeps the blocks it read, so a page read again after a write reads only what changed.
const pages = new PageMarkdown();

/** The markdown of a shared document (its state, as a Yjs update), the blocks it did not change written as in `base`. */
export function sharedDocumentMarkdown(input: { state: Uint8Array; base: string }): string {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, input.state);
    const json = yXmlFragmentToProseMirrorRootNode(doc.getXmlFragment(COLLAB_FIELD), schema).toJSON() as JSONContent;
    return pages.save(pages.load(input.base), json);
  } finally {
    doc.destroy();
  }
}

/** The editor's document (JSON) a page's markdown reads as. */
export function editorDocument(markdown: string): JSONContent {
  return pages.load(markdown).doc;
}
