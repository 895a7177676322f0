/**
 * Saves generated text as a file in the browser: a Blob with the file's MIME type behind a
 * temporary object URL, clicked through an `<a download>`. Used for the `.ics` booking files and
 * the admin CSV exports; the URL is revoked after the click has been handled.
 */
export function downloadTextFile(text: string, fileName: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking synchronously can cancel the download in some browsers: let the click finish first.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
