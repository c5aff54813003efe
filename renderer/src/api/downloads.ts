/** Files the service sends (exports): their name, and handing them to the browser's download. */

export interface DownloadedFile {
  fileName: string;
  type: string;
  bytes: Uint8Array;
}

/** `attachment; filename="x.xlsx"` (or `filename*=UTF-8''...`) → the file name; else the fallback. */
export function fileNameOf(disposition: string | undefined, fallback: string): string {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

/** Hands bytes to the download through a temporary link; works in Electron and in a browser tab. */
export function saveFile(bytes: Uint8Array | string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the URL is released once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
