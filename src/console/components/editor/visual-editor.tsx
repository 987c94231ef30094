import { Extension } from '@tiptap/core';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { Placeholder } from '@tiptap/extensions';
import Collaboration from '@tiptap/extension-collaboration';
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { editorExtensions, PageMarkdown, type LoadedPage } from '../../../shared/editor/markdown-blocks';
import { fileTarget, spaceOfFiles } from '../ui/markdown-files';
import { COLLAB_FIELD } from '../../../shared/contract/collab';
import type { CollabSession } from './collaboration';
import { collaborationCursors } from './collaboration-cursors';
import { SlashMenu, type OfferedBlock } from './slash-menu';
import { atomViews, gitbookViews, integrationView, type Suggestion } from './gitbook-views';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { unfurls } from '../../../shared/gitbook-blocks';
import type { installedIntegrationListSchema } from '../../../shared/contract';
import { Find } from './find';
import { FindBar } from './find-bar';
import { BubbleMenu } from '@tiptap/react/menus';
import { Plugin, PluginKey, TextSelection, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import { redoDepth, undoDepth } from '@tiptap/pm/history';
import { yUndoPluginKey } from '@tiptap/y-tiptap';
import { LinkDialog, type LinkTarget } from './link-dialog';
import { explicitHeadingId, HeadingIds } from '../../../shared/heading-ids';
import './visual-editor.css';

/** What the page form asks of the editor. */
export interface VisualEditorHandle {
  /** The markdown as it stands now (pending changes written out). */
  flush(): string;
  /**
   * Inserts markdown (an uploaded file's image or link) where the writer is, or where files were dropped; `filesUrl`:
   * the files (of the revision made by the upload) its images are shown from.
   */
  insertMarkdown(markdown: string, filesUrl?: string): void;
  /** The top-level block the cursor is in (to keep the writer's place when they switch to markdown). */
  caretBlock(): number | undefined;
  /** Puts the cursor at the start of top-level block `block` (or the last), in view. */
  placeCaret(block: number): void;
}

interface Props {
  /** The page's markdown when the editor opens; later changes of it from outside open it anew. */
  markdown: string;
  onChange: (markdown: string) => void;
  label: string;
  /** Where `/files/<id>` images are shown from (see MarkdownFilesContext). */
  filesUrl?: string;
  /** Files dropped or pasted on the text: the form uploads them, then inserts them (insertMarkdown). */
  onFiles?: (files: File[]) => void;
  /** Asks for files to upload (the `/` menu's "Image or file"): they come back through insertMarkdown. */
  onUpload?: () => void;
  /** The pages a link may go to (the link dialog lists them, with this page's headings). */
  linkTargets?: LinkTarget[];
  /** The reusable contents an include may name (suggested as its name is typed). */
  includeTargets?: Suggestion[];
  /**
   * The page's shared document, when it is edited together (collaboration.ts): the editor shows and changes it, and
   * the server writes the page from it; `markdown` and `onChange` are then not used.
   */
  collab?: CollabSession;
  /** false: shown, not changed (a reader, or while the shared document is not yet there). */
  editable?: boolean;
  ref?: Ref<VisualEditorHandle>;
}

/** How long typing may go on before the markdown is written out (it is at once when the form asks: flush). */
const WRITE_AFTER_MS = 300;

/** Pages as the editor reads and writes them (one for the console: it keeps the blocks it read). */
export const pages = new PageMarkdown();

/**
 * What the editor's handlers read when they run, made once with the editor (its extensions, drops and pastes): the
 * latest of its props.
 */
interface Latest {
  /** Where `/files/<id>` images are shown from: the files of the latest revision (an upload makes a new one). */
  filesUrl?: string;
  files?: (files: File[]) => void;
  upload?: () => void;
  includes?: Suggestion[] | undefined;
  /** The blocks the space's integrations offer (the `/` menu lists them). */
  integrationBlocks?: OfferedBlock[];
}

/** The handlers read `props` from now on. */
function keepLatest(latest: Latest, props: Latest) {
  Object.assign(latest, props);
}

/** Shows an image of the page (`data-file`: the page's own `src`) from `filesUrl`, if that is not where it is from. */
function showFrom(img: HTMLImageElement, filesUrl: string | undefined) {
  const next = img.dataset.file ? fileTarget(img.dataset.file, filesUrl) : undefined;
  if (next && img.getAttribute('src') !== next) img.src = next;
}

/** Ctrl/⌘+K edits the link here (rather than opening the organization's search): `open` shows the link dialog. */
const LinkShortcut = Extension.create<{ open: (editor: Editor) => void }>({
  name: 'linkShortcut',
  addOptions: () => ({ open: () => undefined }),
  addKeyboardShortcuts() {
    return {
      'Mod-k': () => {
        this.options.open(this.editor as Editor);
        return true;
      },
    };
  },
});

/** Top-level blocks on either side of the selection's that are always rendered (see NearSelection). */
const NEAR_BLOCKS = 3;

/**
 * On a long page the browser lays out and paints only the blocks near the screen (`content-visibility: auto` in
 * visual-editor.css: laying out every block of a 2,500-line page is a third of opening it, and part of every
 * keystroke). Except the blocks around the selection, marked here (`near-selection`): a block just made, or the
 * one the caret was just put in, may not be on screen yet, and text typed into a block the browser has not laid
 * out lands in the wrong place.
 */
const NearSelection = Extension.create({
  name: 'nearSelection',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('nearSelection'),
        props: {
          decorations: ({ doc, selection }) => {
            if (doc.childCount === 0) return DecorationSet.empty;
            const first = Math.max(0, Math.min(selection.$from.index(0), doc.childCount - 1) - NEAR_BLOCKS);
            const last = Math.min(doc.childCount - 1, selection.$to.index(0) + NEAR_BLOCKS);
            const near: Decoration[] = [];
            let pos = 0;
            for (let i = 0; i < first; i++) pos += doc.child(i).nodeSize;
            for (let i = first; i <= last; i++) {
              const size = doc.child(i).nodeSize;
              near.push(Decoration.node(pos, pos + size, { class: 'near-selection' }));
              pos += size;
            }
            return DecorationSet.create(doc, near);
          },
        },
      }),
    ];
  },
});

/** Ctrl/⌘+F in the text opens the find bar (the browser's own find still works outside it). */
const FindShortcut = Extension.create<{ open: () => void }>({
  name: 'findShortcut',
  addOptions: () => ({ open: () => undefined }),
  addKeyboardShortcuts() {
    return {
      'Mod-f': () => {
        this.options.open();
        return true;
      },
    };
  },
});

/** The boxes around an editor that clip what is in it (overflow other than visible), measured once per width. */
const clippers = new WeakMap<EditorView, { width: number; boxes: Element[] }>();

function clippingBoxes(view: EditorView): Element[] {
  const known = clippers.get(view);
  if (known && known.width === window.innerWidth) return known.boxes;
  const boxes: Element[] = [];
  for (let el = view.dom.parentElement; el && el !== document.body; el = el.parentElement) {
    const style = getComputedStyle(el);
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible') boxes.push(el);
    if (style.position === 'fixed') break;
  }
  clippers.set(view, { width: window.innerWidth, boxes });
  return boxes;
}

/**
 * After every change ProseMirror brings the selection into view by measuring each of the caret's ancestors up to
 * the page (six measures each: some eighty a keystroke). While typing the caret is in view already: one measure of
 * it, and of the few boxes that may clip it, says so and spares the rest. Otherwise (out of view, or in a block
 * that scrolls, a wide table or code) ProseMirror scrolls as it does.
 */
function caretInView(view: EditorView): boolean {
  const { selection } = view.state;
  if (!(selection instanceof TextSelection)) return false;
  let caret: { top: number; bottom: number; left: number; right: number };
  try {
    caret = view.coordsAtPos(selection.head, 1);
  } catch {
    return false;
  }
  const margin = 5;
  if (caret.top < margin || caret.bottom > window.innerHeight - margin) return false;
  if (caret.left < 0 || caret.right > window.innerWidth) return false;
  // A block inside the page that scrolls (a wide table, a long code line): ProseMirror scrolls it.
  for (let node: Node | null = view.domAtPos(selection.head).node; node && node !== view.dom; node = node.parentNode) {
    if (node instanceof Element && (node.scrollWidth > node.clientWidth || node.scrollHeight > node.clientHeight)) {
      return false;
    }
  }
  for (const box of clippingBoxes(view)) {
    const rect = box.getBoundingClientRect();
    if (caret.top < rect.top || caret.bottom > rect.bottom || caret.left < rect.left || caret.right > rect.right) {
      return false;
    }
  }
  return true;
}

/** The document's top-level headings, in order, with where each starts. */
function headingsOf(editor: Editor): Array<{ level: number; text: string; pos: number }> {
  const found: Array<{ level: number; text: string; pos: number }> = [];
  editor.state.doc.forEach((node, offset) => {
    if (node.type.name === 'heading')
      found.push({ level: Number(node.attrs.level), text: node.textContent, pos: offset });
  });
  return found;
}

/** The headings of the document, as links to them (their ids as the published page gives them). */
function headingTargets(editor: Editor): LinkTarget[] {
  const ids = new HeadingIds();
  return headingsOf(editor).map(({ text }) => {
    const named = explicitHeadingId(text);
    const id = ids.next(named?.text ?? text, named?.id);
    return { label: named?.text ?? text, detail: 'Heading on this page', href: `#${id}` };
  });
}

/**
 * The page body as a writer sees it (a ProseMirror editor, through Tiptap): blocks edited in place, with a toolbar
 * and the usual shortcuts (Ctrl/⌘+B, I, Z, Shift+Z; `#`, `-`, `1.`, `>`, ``` at the start of a line). The page is
 * read block by block and written back changing only the blocks the writer changed (markdown-blocks.ts); blocks it
 * cannot show as what they are (GitBook blocks, HTML, math) stay as their markdown, shown as source.
 */
export default function VisualEditor({
  markdown,
  onChange,
  label,
  filesUrl,
  onFiles,
  onUpload,
  linkTargets,
  includeTargets,
  collab,
  editable = true,
  ref,
}: Props) {
  const [initial] = useState(() => pages.load(markdown));
  const loaded = useRef<LoadedPage>(initial);
  const written = useRef(markdown);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Where dropped files go: the place they were dropped on, kept until they are uploaded.
  const dropAt = useRef<number | undefined>(undefined);
  const [latest] = useState<Latest>(() => ({ filesUrl }));
  const queryClient = useQueryClient();
  // The blocks of the integrations installed in the page's space, for the `/` menu.
  const spaceId = spaceOfFiles(filesUrl);
  const installed = useQuery({
    queryKey: ['space-integrations', spaceId],
    queryFn: ({ signal }) =>
      api.get<typeof installedIntegrationListSchema>(`/spaces/${spaceId}/integrations`, { signal }),
    enabled: !!spaceId && editable,
    staleTime: 60_000,
  });
  const integrationBlocks = useMemo(
    () =>
      (installed.data?.items ?? []).flatMap((i) =>
        (i.blocks ?? []).map((b) => ({
          integration: i.name,
          title: i.title,
          block: b.id,
          blockTitle: b.title,
          urlUnfurl: b.urlUnfurl ?? [],
        })),
      ),
    [installed.data],
  );
  useEffect(() =>
    keepLatest(latest, { filesUrl, files: onFiles, upload: onUpload, includes: includeTargets, integrationBlocks }),
  );
  // The link dialog: open with the link being edited (undefined: none), or closed (null). Ctrl/⌘+K and the Link
  // buttons open it on the link at the cursor, if any.
  // A page reference's page is chosen with the same dialog (`apply` then takes what is chosen).
  const [link, setLink] = useState<{
    href: string | undefined;
    apply?: (href: string, title: string) => void;
  } | null>(null);
  const openLink = useCallback((e: Editor) => {
    if (e.isEditable) setLink({ href: e.getAttributes('link').href as string | undefined });
  }, []);
  const extensions = useMemo(() => {
    const imageSrc = (src: string) => fileTarget(src, latest.filesUrl) ?? src;
    return [
      ...editorExtensions(imageSrc, {
        history: !collab,
        views: {
          ...gitbookViews,
          ...atomViews(
            (href, apply) => setLink({ href, apply }),
            imageSrc,
            () => latest.includes ?? [],
          ),
          integration: integrationView(() => ({
            spaceId: spaceOfFiles(latest.filesUrl),
            client: queryClient,
          })),
        },
      }),
      LinkShortcut.configure({ open: openLink }),
      NearSelection,
      Find,
      FindShortcut.configure({ open: () => setFinding((n) => n + 1) }),
      SlashMenu.configure({ upload: () => latest.upload?.(), integrationBlocks: () => latest.integrationBlocks ?? [] }),
      Placeholder.configure({ placeholder: 'Write, or type / to insert a block, # for a heading, - for a list…' }),
      ...(collab
        ? [
            Collaboration.configure({ document: collab.doc, field: COLLAB_FIELD }),
            collaborationCursors(collab.provider),
          ]
        : []),
    ];
  }, [latest, collab, openLink, queryClient]);

  /**
   * A link pasted alone that a block of the space's integrations unfurls (`urlUnfurl`, GitHub files' for a file on
   * GitHub…) becomes that block, rendered from the link; anything else is pasted as it is.
   */
  const unfurlLink = (view: EditorView, event: ClipboardEvent): boolean => {
    const text = event.clipboardData?.getData('text/plain').trim() ?? '';
    if (!/^https?:\/\/\S+$/i.test(text) || !view.state.schema.nodes.integration) return false;
    const offered = (latest.integrationBlocks ?? []).find((b) => b.urlUnfurl.some((p) => unfurls(p, text)));
    if (!offered) return false;
    event.preventDefault();
    const node = view.state.schema.nodes.integration.create({
      integration: offered.integration,
      block: offered.block,
      props: '{}',
      unfurl: text,
    });
    view.dispatch(view.state.tr.replaceSelectionWith(node).scrollIntoView());
    return true;
  };

  /** Files dropped (at `at`) or pasted (where the writer is) go to the form to upload; anything else is the editor's. */
  const takeFiles = (event: Event, data: DataTransfer | null, at: number | undefined): boolean => {
    const files = [...(data?.files ?? [])];
    if (!files.length || !latest.files) return false;
    event.preventDefault();
    dropAt.current = at;
    latest.files(files);
    return true;
  };

  const [outline, setOutline] = useState(false);
  // The find bar (Ctrl/⌘+F in the text, or the toolbar's Find).
  // (A number: each Ctrl/⌘+F takes the writer to its field again; 0: closed.)
  const [finding, setFinding] = useState(0);

  const write = (editor: Editor): string => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const next = pages.save(loaded.current, editor.getJSON());
    if (next !== written.current) {
      written.current = next;
      onChange(next);
    }
    return next;
  };

  const editor = useEditor(
    {
      extensions,
      // A shared document brings its own content.
      ...(collab ? {} : { content: initial.doc }),
      editable,
      immediatelyRender: true,
      editorProps: {
        attributes: { class: 'visual-editor-body', 'aria-label': label, 'aria-multiline': 'true', role: 'textbox' },
        handleDrop: (view, event) =>
          takeFiles(event, event.dataTransfer, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos),
        handlePaste: (view, event) => takeFiles(event, event.clipboardData, undefined) || unfurlLink(view, event),
        handleScrollToSelection: caretInView,
      },
      onUpdate: ({ editor }) => {
        if (collab) return;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => write(editor), WRITE_AFTER_MS);
      },
      onBlur: ({ editor }) => {
        if (timer.current !== undefined) write(editor);
      },
    },
    [collab],
  );

  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable);
  }, [editor, editable]);

  // Markdown that changed from outside (another revision adopted, changes discarded): the editor opens it anew.
  useEffect(() => {
    if (!editor || collab || markdown === written.current) return;
    loaded.current = pages.load(markdown);
    written.current = markdown;
    editor.commands.setContent(loaded.current.doc, { emitUpdate: false });
  }, [markdown, editor, collab]);

  useEffect(() => () => clearTimeout(timer.current), []);

  // An image shown from files older than it (put in by another writer, uploaded meanwhile) is shown again from the
  // latest files: when its address fails, and when newer files come.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const dom = box.current;
    if (!dom) return;
    const failed = (event: Event) => {
      if (event.target instanceof HTMLImageElement) showFrom(event.target, latest.filesUrl);
    };
    dom.addEventListener('error', failed, true);
    return () => dom.removeEventListener('error', failed, true);
  }, [latest]);
  useEffect(() => {
    for (const img of box.current?.querySelectorAll('img') ?? []) {
      if (img.complete && !img.naturalWidth) showFrom(img, filesUrl);
    }
  }, [filesUrl]);

  useImperativeHandle(
    ref,
    () => ({
      flush: () => (editor && !collab ? write(editor) : written.current),
      caretBlock: () => editor?.state.selection.$from.index(0),
      placeCaret: (block: number) => {
        if (!editor) return;
        let at: number | undefined;
        editor.state.doc.forEach((node, offset, index) => {
          if (index <= block && (node.isTextblock || at === undefined || index === block)) at = offset + 1;
        });
        if (at === undefined) return;
        editor.chain().focus().setTextSelection(at).scrollIntoView().run();
        // Now, not a frame later (a key typed at once goes to the text).
        editor.view.focus();
      },
      insertMarkdown: (text: string, files?: string) => {
        if (!editor) return;
        if (files) keepLatest(latest, { filesUrl: files });
        const content = pages.manager.parse(text).content ?? [];
        const at = dropAt.current;
        const chain = editor.chain().focus();
        if (at !== undefined && at <= editor.state.doc.content.size) chain.insertContentAt(at, content).run();
        else chain.insertContent(content).run();
        // The next file of the same drop goes after this one.
        if (at !== undefined) dropAt.current = editor.state.selection.to;
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [editor, collab],
  );

  return (
    <div className="visual-editor" ref={box}>
      {/* The toolbar and the find bar stay in view as the page scrolls under them. */}
      <div className="visual-editor-top">
        {editor && editable && (
          <Toolbar
            editor={editor}
            outline={outline}
            onOutline={() => setOutline(!outline)}
            finding={finding > 0}
            onFind={() => setFinding(finding ? 0 : 1)}
            onLink={() => openLink(editor)}
          />
        )}
        {editor && finding > 0 && <FindBar editor={editor} focus={finding} onClose={() => setFinding(0)} />}
      </div>
      {editor && outline && <Outline editor={editor} onClose={() => setOutline(false)} />}
      {editor && editable && <SelectionToolbar editor={editor} onLink={() => openLink(editor)} />}
      {editor && link && (
        <LinkDialog
          open
          href={link.href}
          {...(link.apply ? { title: 'Choose a page' } : {})}
          // Back to the text, not to the button that opened it (Radix would focus that after the dialog closes,
          // taking the focus from the text where choosing a page put the caret).
          returnFocusRef={{ current: editor.view.dom }}
          targets={link.apply ? (linkTargets ?? []) : [...headingTargets(editor), ...(linkTargets ?? [])]}
          onClose={() => {
            setLink(null);
            editor.commands.focus();
          }}
          {...(link.apply
            ? {}
            : {
                onRemove: () => {
                  editor.chain().focus().extendMarkRange('link').unsetLink().run();
                  setLink(null);
                },
              })}
          onApply={(href, label) => {
            if (link.apply) {
              link.apply(href, label);
              setLink(null);
              return;
            }
            const chain = editor.chain().focus();
            if (editor.state.selection.empty && !editor.isActive('link')) {
              chain.insertContent({ type: 'text', text: label, marks: [{ type: 'link', attrs: { href } }] }).run();
            } else chain.extendMarkRange('link').setLink({ href }).run();
            setLink(null);
          }}
        />
      )}
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({
  editor,
  outline,
  onOutline,
  onLink,
  finding,
  onFind,
}: {
  editor: Editor;
  outline: boolean;
  onOutline: () => void;
  onLink: () => void;
  finding: boolean;
  onFind: () => void;
}) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      code: e.isActive('code'),
      link: e.isActive('link'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      task: e.isActive('taskList'),
      quote: e.isActive('blockquote'),
      codeBlock: e.isActive('codeBlock'),
      ...undoRedo(e.state),
    }),
  });
  const chain = () => editor.chain().focus();
  const button = (name: string, label: string, active: boolean | undefined, run: () => void, disabled = false) => (
    <ToolButton name={name} label={label} active={active} run={run} disabled={disabled} />
  );
  return (
    <div className="visual-editor-toolbar" role="toolbar" aria-label="Formatting">
      {button('B', 'Bold (Ctrl+B)', state.bold, () => chain().toggleBold().run())}
      {button('I', 'Italic (Ctrl+I)', state.italic, () => chain().toggleItalic().run())}
      {button('</>', 'Code', state.code, () => chain().toggleCode().run())}
      {button('Link', 'Link (Ctrl+K)', state.link, onLink)}
      <span className="visual-editor-separator" aria-hidden="true" />
      {button('H2', 'H2 heading', state.h2, () => chain().toggleHeading({ level: 2 }).run())}
      {button('H3', 'H3 subheading', state.h3, () => chain().toggleHeading({ level: 3 }).run())}
      {button('•', 'Bulleted list', state.bullet, () => chain().toggleBulletList().run())}
      {button('1.', '1. numbered list', state.ordered, () => chain().toggleOrderedList().run())}
      {button('☐', 'Task list', state.task, () => chain().toggleTaskList().run())}
      {button('❝', 'Quote', state.quote, () => chain().toggleBlockquote().run())}
      {button('{ }', 'Code block', state.codeBlock, () => chain().toggleCodeBlock().run())}
      {button('▦', 'Table', undefined, () => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run())}
      <span className="visual-editor-separator" aria-hidden="true" />
      {button('↶', 'Undo (Ctrl+Z)', undefined, () => chain().undo().run(), !state.undo)}
      {button('↷', 'Redo (Ctrl+Shift+Z)', undefined, () => chain().redo().run(), !state.redo)}
      <span className="visual-editor-separator" aria-hidden="true" />
      <button
        type="button"
        className="visual-editor-tool visual-editor-outline-toggle"
        aria-expanded={outline}
        aria-controls="visual-editor-outline"
        onMouseDown={(event) => event.preventDefault()}
        onClick={onOutline}
      >
        Outline
      </button>
      {button('Find', 'Find and replace (Ctrl+F)', finding, onFind)}
    </div>
  );
}

/** A button of a toolbar: it acts on the editor without taking its focus. `active`: pressed or not, if a toggle. */
function ToolButton({
  name,
  label,
  active,
  run,
  disabled = false,
}: {
  name: string;
  label: string;
  active: boolean | undefined;
  run: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className="visual-editor-tool"
      aria-label={label}
      title={label}
      aria-pressed={active}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={run}
    >
      <span aria-hidden="true">{name}</span>
    </button>
  );
}

/**
 * Whether undo and redo can do anything: the shared history of a page edited together (Yjs), or the editor's own.
 * Read on every change (the toolbar's buttons), so read from the state rather than by trying the commands.
 */
function undoRedo(state: EditorState): { undo: boolean; redo: boolean } {
  const shared = (yUndoPluginKey.getState(state) as { undoManager?: { undoStack: unknown[]; redoStack: unknown[] } })
    ?.undoManager;
  if (shared) return { undo: shared.undoStack.length > 0, redo: shared.redoStack.length > 0 };
  return { undo: undoDepth(state) > 0, redo: redoDepth(state) > 0 };
}

/**
 * The floating toolbar shows over selected text only: not over a selected block (a block of fields chosen, or just
 * inserted), which it would cover while the writer fills the block's fields. One function for good: the menu
 * updates its plugin (a transaction) whenever it is given another.
 */
const showSelectionToolbar: NonNullable<Parameters<typeof BubbleMenu>[0]['shouldShow']> = ({
  editor: e,
  state,
  from,
  to,
}) =>
  from !== to &&
  state.selection instanceof TextSelection &&
  e.isEditable &&
  !e.isActive('codeBlock') &&
  !e.isActive('markdownSource');

/** The floating toolbar over selected text: what one does with a selection. */
function SelectionToolbar({ editor, onLink }: { editor: Editor; onLink: () => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      strike: e.isActive('strike'),
      code: e.isActive('code'),
      link: e.isActive('link'),
    }),
  });
  const chain = () => editor.chain().focus();
  const tool = (name: string, label: string, active: boolean, run: () => void) => (
    <ToolButton name={name} label={label} active={active} run={run} />
  );
  return (
    <BubbleMenu editor={editor} className="visual-editor-bubble" shouldShow={showSelectionToolbar}>
      <div role="toolbar" aria-label="Selection">
        {tool('B', 'Bold', state.bold, () => chain().toggleBold().run())}
        {tool('I', 'Italic', state.italic, () => chain().toggleItalic().run())}
        {tool('S', 'Strikethrough', state.strike, () => chain().toggleStrike().run())}
        {tool('</>', 'Inline code', state.code, () => chain().toggleCode().run())}
        {tool('Link', 'Link', state.link, onLink)}
      </div>
    </BubbleMenu>
  );
}

/** The page's headings, to jump to one (the cursor goes to its start, and it scrolls into view). */
function Outline({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const headings = useEditorState({
    editor,
    selector: ({ editor: e }) => headingsOf(e),
    equalityFn: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  });
  const jump = (pos: number) => {
    editor
      .chain()
      .focus()
      .setTextSelection(pos + 1)
      .run();
    // Now: the focus command waits a frame, and a key typed at once would go to the outline's button.
    editor.view.focus();
    const { node } = editor.view.domAtPos(pos + 1);
    (node instanceof Element ? node : node.parentElement)?.scrollIntoView({ block: 'center' });
  };
  return (
    <nav id="visual-editor-outline" className="visual-editor-outline" aria-label="Outline">
      {headings.length === 0 ? (
        <p className="visual-editor-outline-empty">No headings yet: type # and a space to start one.</p>
      ) : (
        <ul>
          {headings.map((heading, i) => (
            <li key={i} style={{ paddingLeft: `${(heading.level - 1) * 12}px` }}>
              <button
                type="button"
                onClick={() => {
                  jump(heading.pos);
                  if (window.matchMedia('(max-width: 700px)').matches) onClose();
                }}
              >
                {heading.text || 'Untitled heading'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
