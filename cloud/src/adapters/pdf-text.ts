import { execFile } from 'node:child_process';

/**
 * The text a reader sees on a PDF's pages, as poppler's `pdftotext` extracts it (UTF-8, reading
 * order). `verify-pdf` compares it with the signed record, so a page that says something else
 * than the attachment is refused.
 */
export function extractPdfText(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('pdftotext', ['-enc', 'UTF-8', '-q', file, '-'], { maxBuffer: 16 * 1024 * 1024, timeout: 60_000 }, (error, stdout) => {
      if (error) reject(new Error(`pdftotext could not read the PDF (poppler-utils installed?): ${error.message}`));
      else resolve(stdout);
    });
  });
}
