import { FILE_NAME_MAX, FILE_UPLOAD_MAX_BYTES, FILES_PER_OPERATION_MAX } from '../../../../shared/contract';

/** A media type the content API accepts as `contentType` (else the server infers one from the name). */
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Why a file cannot be uploaded into a page (the server's limits), as a sentence; undefined when it can. */
export function fileProblem(file: File): string | undefined {
  if (file.size === 0) return `"${file.name}" is empty: there is nothing to upload.`;
  if (file.size > FILE_UPLOAD_MAX_BYTES) {
    return `"${file.name}" is ${sizeText(file.size)}; a file can be at most ${sizeText(FILE_UPLOAD_MAX_BYTES)}.`;
  }
  if (file.name.length > FILE_NAME_MAX) return `The file name is longer than ${FILE_NAME_MAX} characters.`;
  return undefined;
}

export const FILES_AT_ONCE_MAX = FILES_PER_OPERATION_MAX;

/** A name for a file that has none (a pasted screenshot is often called "image.png" or nothing). */
export function nameOf(file: File): string {
  if (file.name) return file.name;
  const extension = file.type.startsWith('image/') ? `.${file.type.slice(6).replace(/\W.*$/, '')}` : '';
  return `pasted-${new Date().toISOString().replace(/[:.]/g, '-')}${extension}`;
}

export function contentTypeOf(file: File): string | undefined {
  return MEDIA_TYPE.test(file.type) ? file.type : undefined;
}

/** Markdown naming a stored file, as the published site resolves it: an image, or a link for other files. */
export function fileMarkdown(file: { id: string; name: string; contentType: string }): string {
  const label = file.name.replace(/[[\]\\]/g, '\\$&').replace(/\s+/g, ' ');
  return file.contentType.startsWith('image/') ? `![${label}](/files/${file.id})` : `[${label}](/files/${file.id})`;
}
