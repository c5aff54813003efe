/** Hands bytes to the browser's download through a temporary link; works in Electron and a browser tab. */
export function saveFile(bytes: Uint8Array | string, fileName: string, type: string): void {
  const blob = new Blob([bytes as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has the blob by the time the next task runs.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
