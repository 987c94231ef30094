/**
 * Downloads a same-origin URL (the session cookie goes with it) without leaving the console. An anchor with
 * `download` works after an await, where `window.open` would be stopped as a pop-up.
 */
export function download(url: string, filename = ''): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
