// pdfkit (and the fonts and codecs it brings, about 3 MB of code) is loaded by the first export, not at start: a
// server that never exports a PDF never holds it, nor does a worker thread that runs other tasks.
import type PDFKitModule from 'pdfkit';
import { parseMarkdown } from '../../../shared/document/parse.js';
import type { Nodes, PhrasingContent, Root, RootContent, Table } from 'mdast';

/**
 * PDF export of a change request or of one page: a title line, then each page's title (sized and indented by
 * depth) followed by its markdown body (GFM), laid out with pdfkit in the PDF standard fonts only, so no font
 * file is embedded. Text the standard fonts cannot encode (outside WinAnsi: emoji, CJK…) becomes '?'.
 */
export interface PdfInput {
  title: string;
  pages: Array<{ title: string; depth: number; markdown: string }>;
}

export async function renderPdf(input: PdfInput): Promise<Buffer> {
  const { default: PDFDocument } = (await import('pdfkit')) as { default: typeof PDFKitModule };
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: { Title: input.title, Creator: 'docspace' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  new Layout(doc).document(input);
  doc.end();
  return done;
}

// ---------------------------------------------------------------------------------------------------------------
// Text the standard fonts can draw

/** Code points beyond Latin-1 that WinAnsi (the standard fonts' encoding in pdfkit) has a glyph for. */
const WIN_ANSI_EXTRA = new Set([
  0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

/** A few common characters outside WinAnsi with an obvious ASCII spelling (spaces, hyphens, arrows). */
const FALLBACKS: Record<string, string> = {
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u2010': '-',
  '\u2011': '-',
  '\u2212': '-',
  '\u2190': '<-',
  '\u2192': '->',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
};

/** Invisible format characters (zero-width spaces and joiners, BOM, variation selectors): dropped, not shown as '?'. */
function invisible(segment: string): boolean {
  return [...segment].every((c) => {
    const cp = c.codePointAt(0) ?? 0;
    return (cp >= 0x200b && cp <= 0x200f) || cp === 0x2060 || cp === 0xfeff || (cp >= 0xfe00 && cp <= 0xfe0f);
  });
}

function encodable(codePoint: number): boolean {
  return (
    (codePoint >= 0x20 && codePoint <= 0x7e) ||
    (codePoint >= 0xa0 && codePoint <= 0xff) ||
    WIN_ANSI_EXTRA.has(codePoint)
  );
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` restricted to what pdfkit can encode for the standard fonts: each user-perceived character (grapheme:
 * an emoji with its modifiers counts once) that cannot be drawn becomes one '?'. Newlines stay; tabs become spaces.
 */
export function toWinAnsi(text: string): string {
  const normalized = text.normalize('NFC').replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
  // Fast path: most documentation is plain Latin text.
  if (/^[\n\x20-\x7e\xa0-\xff]*$/.test(normalized)) return normalized;
  let out = '';
  for (const { segment } of graphemes.segment(normalized)) {
    if (segment === '\n') out += segment;
    else if ([...segment].every((c) => encodable(c.codePointAt(0) ?? 0))) out += segment;
    else if (FALLBACKS[segment] !== undefined) out += FALLBACKS[segment];
    else if (!invisible(segment)) out += '?';
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Layout

const MARGIN = 56;
const FOOTER = 18;
const BODY_SIZE = 10.5;
const CODE_SIZE = 9;
const LINE_GAP = 2;
const PARAGRAPH_GAP = 6;
const LIST_INDENT = 16;
const QUOTE_INDENT = 14;
const DEPTH_INDENT = 12;
/** Narrowest text column that nesting (lists, quotes) may leave. */
const MIN_TEXT_WIDTH = 160;
const MAX_DEPTH = 6;
const TEXT_COLOR = '#111827';
const MUTED_COLOR = '#6b7280';
const RULE_COLOR = '#d1d5db';
const CODE_BACKGROUND = '#f3f4f6';
const LINK_COLOR = '#1d4ed8';
/** Sizes of markdown headings `#`…`######` inside a page body. */
const HEADING_SIZES = [16, 14, 12.5, 11.5, 10.5, 10.5];
/** Sizes of page titles by depth (0 = top level); deeper pages use the last one. */
const PAGE_TITLE_SIZES = [19, 16.5, 14.5, 13];
const DOCUMENT_TITLE_SIZE = 24;
/** Passed as `height` when measuring, so that pdfkit's line wrapper never adds a page while it measures. */
const UNBOUNDED = 1e7;
/** Slices of a long word that pdfkit wraps separately (see `paragraph`). */
const LONG_WORD = /\S{200}(?=\S)/g;

/** The only fonts used: PDF standard fonts, which readers provide, so none is embedded. */
type FontName = 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique' | 'Courier';

interface Style {
  bold: boolean;
  italic: boolean;
  code: boolean;
  strike: boolean;
  link: string | null;
}

interface Run {
  text: string;
  style: Style;
}

interface Block {
  /** Left offset from the page margin. */
  indent: number;
  /** Gap after paragraphs: smaller in tight lists. */
  gap: number;
}

const PLAIN: Style = { bold: false, italic: false, code: false, strike: false, link: null };

function fontOf(style: Style): FontName {
  if (style.code) return 'Courier';
  if (style.bold) return 'Helvetica-Bold';
  if (style.italic) return 'Helvetica-Oblique';
  return 'Helvetica';
}

function sameStyle(a: Style, b: Style): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.code === b.code && a.strike === b.strike && a.link === b.link;
}

/** A URL compared loosely with a link's text: scheme and trailing slash do not make them differ. */
function bareUrl(url: string): string {
  return url
    .trim()
    .replace(/^(https?:\/\/|mailto:)/i, '')
    .replace(/\/$/, '')
    .toLowerCase();
}

/** Plain text of phrasing content, to compare a link's text with its URL. */
function plainText(nodes: readonly Nodes[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'image' || node.type === 'imageReference') out += imageLabel(node.alt);
    else if (node.type === 'break') out += '\n';
    else if ('value' in node && typeof node.value === 'string') out += node.value;
    else if ('children' in node) out += plainText(node.children);
  }
  return out;
}

/** Links that become clickable annotations: absolute web and mail addresses (relative ones mean nothing in a PDF). */
function clickable(url: string | null): url is string {
  return url !== null && /^(https?:|mailto:)/i.test(url.trim());
}

function imageLabel(alt: string | null | undefined): string {
  return alt ? `[image: ${alt}]` : '[image]';
}

class Layout {
  private readonly width: number;
  private readonly definitions = new Map<string, string>();

  constructor(private readonly doc: PDFKit.PDFDocument) {
    this.width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  }

  document(input: PdfInput): void {
    const { doc } = this;
    this.heading(input.title, DOCUMENT_TITLE_SIZE, 0);
    this.rule(0, 1, '#9ca3af');
    doc.y += 10;
    const outline: Array<{ depth: number; item: PDFKit.PDFOutline }> = [];
    for (const page of input.pages) {
      const depth = Math.min(Math.max(Math.trunc(Number.isFinite(page.depth) ? page.depth : 0), 0), MAX_DEPTH);
      const size = PAGE_TITLE_SIZES[Math.min(depth, PAGE_TITLE_SIZES.length - 1)] ?? BODY_SIZE;
      this.space(depth === 0 ? 14 : 10);
      this.keepWithNext(size);
      // Bookmarks follow the page tree: an entry nests under the closest previous entry of a smaller depth.
      while (outline.length > 0 && (outline.at(-1)?.depth ?? 0) >= depth) outline.pop();
      const parent = outline.at(-1)?.item ?? doc.outline;
      outline.push({ depth, item: parent.addItem(page.title || 'Untitled') });
      this.heading(page.title || 'Untitled', size, depth * DEPTH_INDENT);
      if (depth === 0) this.rule(0, 0.5, RULE_COLOR);
      this.space(4);
      this.markdown(page.markdown);
    }
    this.footers();
  }

  // -- page furniture ---------------------------------------------------------------------------------------------

  private footers(): void {
    const { doc } = this;
    const { start, count } = doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      const label = `${i - start + 1} / ${count}`;
      doc.font('Helvetica').fontSize(8.5).fillColor(MUTED_COLOR);
      const x = (doc.page.width - doc.widthOfString(label)) / 2;
      // Without a width (lineBreak: false) pdfkit draws at once and never breaks the page below the bottom margin.
      doc.text(label, x, doc.page.height - MARGIN, { lineBreak: false });
    }
    doc.fillColor(TEXT_COLOR);
  }

  // -- vertical space ----------------------------------------------------------------------------------------------

  /** Deepest indent of a block: nesting (lists, quotes) stops indenting once the column would get too narrow. */
  private get maxIndent(): number {
    return this.width - MIN_TEXT_WIDTH;
  }

  private get bottom(): number {
    return this.doc.page.maxY();
  }

  private atPageTop(): boolean {
    return this.doc.y <= this.doc.page.margins.top + 0.01;
  }

  /** Adds vertical space, except at the top of a page. */
  private space(points: number): void {
    if (!this.atPageTop()) this.doc.y += points;
  }

  /** Starts a new page when less than `height` is left on this one. */
  private ensure(height: number): void {
    if (this.doc.y + height > this.bottom && !this.atPageTop()) this.doc.addPage();
  }

  /** Keeps a heading of `size` with at least two body lines after it. */
  private keepWithNext(size: number): void {
    this.ensure(this.lineHeight('Helvetica-Bold', size) + 2 * this.lineHeight('Helvetica', BODY_SIZE) + 8);
  }

  private lineHeight(font: FontName, size: number): number {
    return this.doc.font(font).fontSize(size).currentLineHeight(true) + LINE_GAP;
  }

  private currentPage(): number {
    const { start, count } = this.doc.bufferedPageRange();
    return start + count - 1;
  }

  // -- simple pieces -----------------------------------------------------------------------------------------------

  private heading(text: string, size: number, indent: number): void {
    this.keepWithNext(size);
    this.doc
      .font('Helvetica-Bold')
      .fontSize(size)
      .fillColor(TEXT_COLOR)
      .text(toWinAnsi(text), MARGIN + indent, this.doc.y, { width: this.width - indent, lineGap: LINE_GAP });
    this.doc.x = MARGIN;
  }

  /** A horizontal line across the content width (from `indent`), with a little space around it. */
  private rule(indent: number, thickness: number, color: string): void {
    const { doc } = this;
    this.ensure(8);
    doc.y += 3;
    doc
      .save()
      .moveTo(MARGIN + indent, doc.y)
      .lineTo(MARGIN + this.width, doc.y)
      .lineWidth(thickness)
      .strokeColor(color)
      .stroke()
      .restore();
    doc.y += 4;
  }

  // -- markdown ----------------------------------------------------------------------------------------------------

  private markdown(markdown: string): void {
    // The one reading of page markdown (GitBook's blocks and math included), as every place that shows a page.
    const tree: Root = parseMarkdown(markdown);
    this.definitions.clear();
    const collect = (node: Nodes) => {
      if (node.type === 'definition') this.definitions.set(node.identifier, node.url);
      if ('children' in node) for (const child of node.children) collect(child);
    };
    collect(tree);
    this.blocks(tree.children, { indent: 0, gap: PARAGRAPH_GAP });
  }

  private blocks(nodes: readonly RootContent[], block: Block): void {
    for (const node of nodes) this.block(node, block);
  }

  private block(node: RootContent, outer: Block): void {
    const block = { ...outer, indent: Math.min(outer.indent, this.maxIndent) };
    switch (node.type) {
      case 'heading': {
        const size = HEADING_SIZES[node.depth - 1] ?? BODY_SIZE;
        this.space(size * 0.6);
        this.keepWithNext(size);
        this.paragraph(this.runs(node.children, { ...PLAIN, bold: true }), block.indent, size);
        this.space(4);
        return;
      }
      case 'paragraph':
        this.paragraph(this.runs(node.children, PLAIN), block.indent, BODY_SIZE);
        this.space(block.gap);
        return;
      case 'list': {
        const start = node.start ?? 1;
        const gap = node.spread ? PARAGRAPH_GAP : 2;
        node.children.forEach((item, index) => {
          // Task items show their box instead of a bullet.
          const box = item.checked === true ? '[x]' : item.checked === false ? '[ ]' : null;
          const marker = node.ordered ? `${start + index}.${box ? ` ${box}` : ''}` : (box ?? '\u2022');
          this.item(marker, item.children, { indent: block.indent, gap: item.spread ? PARAGRAPH_GAP : gap });
        });
        this.space(block.gap - 2);
        return;
      }
      case 'footnoteDefinition':
        this.item(`[${node.label ?? node.identifier}]`, node.children, { indent: block.indent, gap: 2 });
        this.space(block.gap - 2);
        return;
      case 'code':
        this.code(node.value, block.indent);
        this.space(block.gap + 2);
        return;
      case 'html':
        this.code(node.value, block.indent, false);
        this.space(block.gap);
        return;
      case 'blockquote':
        this.quote(node.children, block);
        return;
      case 'table':
        this.table(node, block.indent);
        this.space(block.gap + 2);
        return;
      case 'thematicBreak':
        this.space(4);
        this.rule(block.indent, 0.75, RULE_COLOR);
        this.space(6);
        return;
      case 'definition':
        return;
      case 'math':
        this.code(node.value, block.indent);
        this.space(block.gap + 2);
        return;
      case 'gitbookBlock': {
        // GitBook's blocks: a hint as a quote, any other as what it holds (its title first: a tab's, a file's).
        const hint = String(node.data?.hProperties?.className ?? '').includes('callout');
        if (hint) this.quote(node.children, block);
        else this.blocks(node.children, block);
        return;
      }
      default:
        // Anything else (phrasing content at block level, extensions): its text as a paragraph.
        if ('children' in node) this.paragraph(this.runs([node as PhrasingContent], PLAIN), block.indent, BODY_SIZE);
        else if ('value' in node) this.paragraph([{ text: node.value, style: PLAIN }], block.indent, BODY_SIZE);
        this.space(block.gap);
    }
  }

  /** A list item (or footnote): `marker` in the gutter, the content indented beside it. */
  private item(marker: string, children: readonly RootContent[], block: Block): void {
    const { doc } = this;
    doc.font('Helvetica').fontSize(BODY_SIZE);
    const markerWidth = Math.max(LIST_INDENT, doc.widthOfString(toWinAnsi(marker)) + 6);
    const indent = Math.max(0, Math.min(block.indent, this.maxIndent - markerWidth));
    const x = MARGIN + indent;
    this.ensure(this.lineHeight('Helvetica', BODY_SIZE) + 1);
    const y = doc.y;
    doc.fillColor(TEXT_COLOR).text(toWinAnsi(marker), x, y, { lineBreak: false });
    doc.x = MARGIN;
    doc.y = y;
    if (children.length === 0) doc.y += this.lineHeight('Helvetica', BODY_SIZE);
    this.blocks(children, { indent: indent + markerWidth, gap: block.gap });
  }

  private quote(children: readonly RootContent[], block: Block): void {
    const { doc } = this;
    this.ensure(this.lineHeight('Helvetica', BODY_SIZE));
    const startPage = this.currentPage();
    const startY = doc.y;
    const indent = Math.max(0, Math.min(block.indent, this.maxIndent - QUOTE_INDENT));
    this.blocks(children, { indent: indent + QUOTE_INDENT, gap: block.gap });
    // The paragraph gap after the last child is not part of the quote.
    const endY = Math.max(doc.y - block.gap, doc.page.margins.top);
    const endPage = this.currentPage();
    const x = MARGIN + indent + 3;
    for (let page = startPage; page <= endPage; page++) {
      doc.switchToPage(page);
      const top = page === startPage ? startY : doc.page.margins.top;
      const bottom = page === endPage ? endY : doc.page.maxY();
      if (bottom > top)
        doc
          .save()
          .rect(x, top, 2.5, bottom - top)
          .fill(RULE_COLOR)
          .restore();
    }
    doc.switchToPage(endPage);
    doc.fillColor(TEXT_COLOR);
  }

  /**
   * Code (or raw HTML) in Courier, wrapped by character count (Courier is monospaced) and drawn line by line, so the
   * light background follows it across pages and a huge line costs no more than its length.
   */
  private code(value: string, indent: number, background = true): void {
    const { doc } = this;
    const pad = background ? 6 : 0;
    const x = MARGIN + indent;
    const width = this.width - indent;
    doc.font('Courier').fontSize(CODE_SIZE).fillColor(TEXT_COLOR);
    const perLine = Math.max(1, Math.floor((width - 2 * pad) / doc.widthOfString('M')));
    const lineHeight = doc.currentLineHeight(true) + 1;
    const lines = toWinAnsi(value.replace(/\n$/, ''))
      .split('\n')
      .flatMap((line) => {
        const pieces: string[] = [];
        for (let i = 0; i < line.length; i += perLine) pieces.push(line.slice(i, i + perLine));
        return pieces.length > 0 ? pieces : [''];
      });
    lines.forEach((line, index) => {
      let top = index === 0 ? pad : 0;
      const bottom = index === lines.length - 1 ? pad : 0;
      if (doc.y + top + lineHeight + bottom > this.bottom && !this.atPageTop()) {
        doc.addPage();
        top = pad;
      }
      const y = doc.y;
      if (background)
        doc
          .save()
          .rect(x, y, width, top + lineHeight + bottom)
          .fill(CODE_BACKGROUND)
          .restore();
      if (line.trim().length > 0) doc.fillColor(TEXT_COLOR).text(line, x + pad, y + top, { lineBreak: false });
      doc.x = MARGIN;
      doc.y = y + top + lineHeight + bottom;
    });
  }

  // -- tables ------------------------------------------------------------------------------------------------------

  private table(node: Table, indent: number): void {
    const { doc } = this;
    const rows = node.children.map((row) => row.children.map((cell) => this.cellText(cell.children)));
    const columns = Math.max(0, ...rows.map((row) => row.length));
    if (columns === 0) return;
    const pad = 4;
    const available = this.width - indent;
    // Natural width of a column: its widest cell on one line; minimum: its longest word.
    const natural = new Array<number>(columns).fill(2 * pad + 10);
    const minimum = new Array<number>(columns).fill(2 * pad + 10);
    rows.forEach((row, r) => {
      doc.font(r === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(BODY_SIZE - 1);
      row.forEach((text, c) => {
        const longest = Math.max(0, ...text.split(/\s+/).map((word) => doc.widthOfString(word)));
        natural[c] = Math.max(natural[c] ?? 0, doc.widthOfString(text) + 2 * pad);
        minimum[c] = Math.max(minimum[c] ?? 0, Math.min(longest + 2 * pad, available / columns));
      });
    });
    const widths = fitColumns(natural, minimum, available);
    const tableWidth = widths.reduce((a, b) => a + b, 0);
    const x0 = MARGIN + indent;
    const align = node.align ?? [];

    const measure = (row: string[], header: boolean) => {
      doc.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(BODY_SIZE - 1);
      return (
        Math.max(
          doc.currentLineHeight(true),
          ...row.map((text, c) =>
            doc.heightOfString(text || ' ', { width: (widths[c] ?? 0) - 2 * pad, lineGap: 1, height: UNBOUNDED }),
          ),
        ) +
        2 * pad
      );
    };
    const line = (y: number, color: string, thickness: number) =>
      doc
        .save()
        .moveTo(x0, y)
        .lineTo(x0 + tableWidth, y)
        .lineWidth(thickness)
        .strokeColor(color)
        .stroke()
        .restore();
    const draw = (row: string[], header: boolean, height: number) => {
      const y = doc.y;
      if (header) doc.save().rect(x0, y, tableWidth, height).fill(CODE_BACKGROUND).restore();
      doc.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(BODY_SIZE - 1);
      let x = x0;
      for (let c = 0; c < columns; c++) {
        const width = widths[c] ?? 0;
        const text = row[c] ?? '';
        if (text)
          doc.fillColor(TEXT_COLOR).text(text, x + pad, y + pad, {
            width: width - 2 * pad,
            lineGap: 1,
            align: align[c] ?? 'left',
          });
        x += width;
      }
      doc.x = MARGIN;
      doc.y = y + height;
      line(doc.y, header ? '#9ca3af' : RULE_COLOR, header ? 0.75 : 0.5);
    };

    const [head, ...body] = rows;
    if (!head) return;
    const headHeight = measure(head, true);
    this.ensure(headHeight + (body[0] ? measure(body[0], false) : 0));
    line(doc.y, RULE_COLOR, 0.5);
    draw(head, true, headHeight);
    for (const row of body) {
      const height = measure(row, false);
      if (doc.y + height > this.bottom && !this.atPageTop()) {
        // Continue on a new page, repeating the header row.
        doc.addPage();
        line(doc.y, RULE_COLOR, 0.5);
        draw(head, true, headHeight);
      }
      draw(row, false, height);
    }
  }

  /** A table cell as plain text: links keep their URL when it differs from the text. */
  private cellText(nodes: readonly PhrasingContent[]): string {
    return toWinAnsi(
      this.runs(nodes, PLAIN)
        .map((run) => run.text)
        .join(''),
    ).replace(/\n/g, ' ');
  }

  // -- inline text -------------------------------------------------------------------------------------------------

  /** Phrasing content as runs of text in one style each. */
  private runs(nodes: readonly PhrasingContent[], style: Style): Run[] {
    const out: Run[] = [];
    const push = (text: string, s: Style) => {
      if (text.length > 0) out.push({ text, style: s });
    };
    const link = (url: string, children: readonly PhrasingContent[]) => {
      out.push(...this.runs(children, { ...style, link: url }));
      const text = plainText(children);
      if (url && bareUrl(text) !== bareUrl(url)) push(` (${url})`, style);
    };
    for (const node of nodes) {
      switch (node.type) {
        case 'text':
          push(node.value.replace(/\n/g, ' '), style);
          break;
        case 'emphasis':
          out.push(...this.runs(node.children, { ...style, italic: true }));
          break;
        case 'strong':
          out.push(...this.runs(node.children, { ...style, bold: true }));
          break;
        case 'delete':
          out.push(...this.runs(node.children, { ...style, strike: true }));
          break;
        case 'inlineCode':
          push(node.value, { ...style, code: true });
          break;
        case 'break':
          push('\n', style);
          break;
        case 'link':
          link(node.url, node.children);
          break;
        case 'linkReference': {
          const url = this.definitions.get(node.identifier);
          if (url !== undefined) link(url, node.children);
          else out.push(...this.runs(node.children, style));
          break;
        }
        case 'image':
        case 'imageReference':
          push(imageLabel(node.alt), { ...style, italic: true });
          break;
        case 'html':
          push(node.value, { ...style, code: true });
          break;
        case 'footnoteReference':
          push(`[${node.label ?? node.identifier}]`, style);
          break;
        case 'inlineMath':
          push(node.value, { ...style, code: true });
          break;
        default: {
          const other = node as Nodes;
          if ('children' in other) out.push(...this.runs(other.children as PhrasingContent[], style));
          else if ('value' in other && typeof other.value === 'string') push(other.value, style);
        }
      }
    }
    return out;
  }

  /**
   * Runs wrapped within the content width from `indent`, one pdfkit `continued` text call per run so fonts can change
   * mid-line. Hard breaks split the runs into lines, each its own sequence (pdfkit loses its place when a continued
   * piece ends in a newline).
   */
  private paragraph(runs: readonly Run[], indent: number, size: number): void {
    const { doc } = this;
    const x = MARGIN + indent;
    const width = this.width - indent;
    const lines: Run[][] = [[]];
    for (const run of runs) {
      const parts = toWinAnsi(run.text).split('\n');
      parts.forEach((part, index) => {
        if (index > 0) lines.push([]);
        const line = lines.at(-1) ?? [];
        const last = line.at(-1);
        if (part.length === 0) return;
        if (last && sameStyle(last.style, run.style)) last.text += part;
        else line.push({ text: part, style: run.style });
      });
    }
    if (lines.every((line) => line.length === 0)) return;
    for (const line of lines) {
      this.ensure(this.lineHeight('Helvetica', size));
      if (line.length === 0) {
        doc.y += this.lineHeight('Helvetica', size);
        continue;
      }
      // pdfkit splits a word wider than the line character by character, in time quadratic in its length: very
      // long words (URLs, hashes, data) go to it in slices, which its `continued` flow puts back together.
      const pieces = line.flatMap((run) =>
        run.text
          .replace(LONG_WORD, '$&\u0000')
          .split('\u0000')
          .map((text) => ({ text, style: run.style })),
      );
      pieces.forEach((run, index) => {
        doc
          .font(fontOf(run.style))
          .fontSize(size)
          .fillColor(clickable(run.style.link) ? LINK_COLOR : TEXT_COLOR);
        const options: PDFKit.Mixins.TextOptions = {
          width,
          lineGap: LINE_GAP,
          continued: index < pieces.length - 1,
          link: clickable(run.style.link) ? run.style.link : null,
          strike: run.style.strike,
          underline: false,
        };
        if (index === 0) doc.text(run.text, x, doc.y, options);
        else doc.text(run.text, options);
      });
      doc.x = MARGIN;
    }
    doc.fillColor(TEXT_COLOR);
  }
}

/**
 * Column widths within `available`: natural widths when they fit; otherwise each column gets at least its minimum
 * (its longest word, capped at an equal share) and the rest is shared in proportion to what columns still want.
 */
function fitColumns(natural: number[], minimum: number[], available: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return natural;
  const base = minimum.map((m, i) => Math.min(m, natural[i] ?? m));
  const baseTotal = base.reduce((a, b) => a + b, 0);
  if (baseTotal >= available) return base.map((b) => (b / baseTotal) * available);
  const wants = natural.map((n, i) => n - (base[i] ?? 0));
  const wantTotal = wants.reduce((a, b) => a + b, 0);
  const spare = available - baseTotal;
  return base.map((b, i) => b + (wantTotal > 0 ? ((wants[i] ?? 0) / wantTotal) * spare : spare / base.length));
}
