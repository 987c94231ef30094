import http from 'node:http';
import { strToU8, zipSync, type Zippable } from 'fflate';

/**
 * Fixtures of imports, built in code: a small HTTP server on loopback that serves them (and counts what it is
 * asked), zips of folders (fflate, with a way to lie in their headers), and a minimal Word document.
 */
export interface FixtureResponse {
  status?: number;
  type?: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Sends the body this slowly (one chunk every `trickleMs`), never finishing: for time limits. */
  trickleMs?: number;
  /** Waits this long before sending the body. */
  delayMs?: number;
}

export interface FixtureServer {
  url: string;
  host: string;
  port: number;
  /** Requests received, by path. */
  requests: string[];
  routes: Map<string, FixtureResponse>;
  set(path: string, response: FixtureResponse): void;
  close(): Promise<void>;
}

export async function startFixtureServer(host = '127.0.0.1'): Promise<FixtureServer> {
  const routes = new Map<string, FixtureResponse>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const route = routes.get(path) ?? routes.get(path.replace(/\?.*$/, ''));
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/plain', ...(route.headers ?? {}) });
    if (route.trickleMs) {
      const timer = setInterval(() => res.write('x'), route.trickleMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (route.delayMs) setTimeout(() => res.end(route.body ?? ''), route.delayMs);
    else res.end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}`,
    host,
    port,
    requests,
    routes,
    set: (path, response) => routes.set(path, response),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A zip of `files` (path → text or bytes), deflated. */
export function zipOf(files: Record<string, string | Uint8Array>): Uint8Array {
  const entries: Zippable = {};
  for (const [path, content] of Object.entries(files)) {
    entries[path] = typeof content === 'string' ? strToU8(content) : content;
  }
  return zipSync(entries, { level: 6 });
}

/**
 * Rewrites the uncompressed size of every entry, in its local header and in the central directory, to `size`:
 * a zip bomb that claims to be small.
 */
export function lieAboutSizes(zip: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  for (let i = 0; i + 4 <= out.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50) view.setUint32(i + 22, size, true);
    if (signature === 0x02014b50) view.setUint32(i + 24, size, true);
  }
  return out;
}

/** Marks an entry of the central directory as a Unix symbolic link. */
export function markSymlink(zip: Uint8Array, name: string): Uint8Array {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  const encoded = strToU8(name);
  for (let i = 0; i + 46 <= out.length; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(i + 28, true);
    const entryName = out.subarray(i + 46, i + 46 + nameLength);
    if (entryName.length === encoded.length && entryName.every((b, j) => b === encoded[j])) {
      view.setUint16(i + 4, (3 << 8) | 20, true); // made by: Unix
      view.setUint32(i + 38, (0o120777 << 16) >>> 0, true); // external attributes: symlink, rwx
    }
  }
  return out;
}

/** A 1×1 PNG. */
export const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/**
 * A minimal Word document (the XML parts a .docx needs): a title in the Heading 1 style, a paragraph with bold
 * text and a link, a table, and an image.
 */
export function docxOf(options: { title: string; text: string; link: string; image?: Uint8Array }): Uint8Array {
  const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const r = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const image = options.image
    ? `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="9525" cy="9525"/><wp:docPr id="1" name="Picture 1" descr="A dot"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" name="dot.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImage"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
    : '';
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${esc(text)}</w:t></w:r></w:p></w:tc>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${w}" xmlns:r="${r}"><w:body>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>${esc(options.title)}</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">${esc(options.text)} </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r><w:r><w:t xml:space="preserve"> and </w:t></w:r><w:hyperlink r:id="rIdLink"><w:r><w:t>a link</w:t></w:r></w:hyperlink></w:p>
<w:tbl><w:tr>${cell('Name')}${cell('Value')}</w:tr><w:tr>${cell('alpha')}${cell('1')}</w:tr></w:tbl>
${image}
</w:body></w:document>`;
  const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${w}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`;
  const rels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${esc(options.link)}" TargetMode="External"/>
${options.image ? '<Relationship Id="rIdImage" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/>' : ''}
</Relationships>`;
  return zipOf({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Default Extension="png" ContentType="image/png"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`,
    'word/document.xml': document,
    'word/styles.xml': styles,
    'word/_rels/document.xml.rels': rels,
    ...(options.image ? { 'word/media/image1.png': options.image } : {}),
  });
}
