import type { SaveFileRequest } from '../../../preload/bridge-types';

/**
 * Files the service sends (exports): their name, and saving them: through the desktop shell's
 * save dialog where the transport offers one, else the browser's download.
 */

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

type FileSaver = (file: SaveFileRequest) => Promise<boolean>;
let shellSaver: FileSaver | undefined;

/** Set once at start from the chosen transport: the desktop shell's save dialog, or none (browser mode). */
export function setFileSaver(saver: FileSaver | undefined): void {
  shellSaver = saver;
}

/** Saves bytes under a suggested name: main's save dialog in the shell (the user picks the folder), else a download. */
export function saveFile(bytes: Uint8Array | string, fileName: string, type: string): void {
  const saver = shellSaver;
  if (!saver) return download(bytes, fileName, type);
  // Should the shell fail to write the file, the page's download still hands it over.
  saver({ fileName, bytes }).catch(() => download(bytes, fileName, type));
}

/** Hands bytes to the download through a temporary link; works in Electron and in a browser tab. */
function download(bytes: Uint8Array | string, fileName: string, type: string): void {
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
