import { htmlToMarkdown } from './html.js';

/**
 * Word documents (.docx) through mammoth, which maps the document's semantic structure (headings, lists, tables,
 * links, footnotes, images) to clean HTML rather than its visual formatting, then to markdown like any HTML.
 * Images are kept as files: they are named `image-N.<ext>` in the markdown, and the import turns those names into
 * file links. Files outside the document that it may link to are never read (`externalFileAccess: false`).
 */
export interface DocxImage {
  name: string;
  contentType: string;
  data: Uint8Array;
}

export interface DocxConversion {
  markdown: string;
  images: DocxImage[];
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
};

export async function docxToMarkdown(data: Uint8Array): Promise<DocxConversion> {
  // Loaded by the first Word import, not at start (mammoth and its XML libraries are a few MB of code).
  const { default: mammoth } = await import('mammoth');
  const images: DocxImage[] = [];
  const result = await mammoth.convertToHtml(
    { buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength) },
    {
      externalFileAccess: false,
      convertImage: mammoth.images.imgElement(async (image) => {
        const bytes = await image.readAsBuffer();
        const name = `image-${images.length + 1}.${EXTENSIONS[image.contentType] ?? 'bin'}`;
        images.push({ name, contentType: image.contentType, data: new Uint8Array(bytes) });
        return { src: name };
      }),
    },
  );
  return { markdown: htmlToMarkdown(result.value).markdown, images };
}
