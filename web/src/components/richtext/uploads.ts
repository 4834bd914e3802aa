//! The editor's uploads (spec 2 "Editor uploads"): images (jpeg, jpg, png, gif) go through the
//! app's image upload; a PDF (at most 20 MB) goes to `POST /upload-file`, which
//! answers 201 {pageCount, pages: [{link, fileName}]} with one stored image per page, in order.
//! Both go through lib/upload.ts (bearer token, correlation headers, failure messages).
import { useCallback } from 'react';
import { IMAGE_ACCEPT, IMAGE_TYPE_MESSAGE, IMAGE_TYPES } from '../admin/fields';
import { useAccessToken } from '../../lib/auth';
import { postFile, type UploadKind } from '../../lib/upload';

export { IMAGE_ACCEPT };

export const PDF_ACCEPT = '.pdf,application/pdf';
/** Spec 2: "files PDF only, max 20 MB (20971520 bytes)". */
export const PDF_MAX_BYTES = 20_971_520;
export const PDF_TYPE_MESSAGE = 'Choose a PDF file';
export const PDF_TOO_LARGE_MESSAGE = 'The PDF is too large: it can be at most 20 MB.';
export const UPLOAD_FILE_ENDPOINT = '/upload-file';

/** Why an image cannot be uploaded, or null. */
export function imageRefusal(file: File): string | null {
  return IMAGE_TYPES.includes(file.type) || /\.(png|jpe?g|gif)$/i.test(file.name) ? null : IMAGE_TYPE_MESSAGE;
}

/** Why a PDF cannot be uploaded, or null; the size is checked here so a big file is never sent. */
export function pdfRefusal(file: File): string | null {
  if (file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)) return PDF_TYPE_MESSAGE;
  return file.size > PDF_MAX_BYTES ? PDF_TOO_LARGE_MESSAGE : null;
}

export interface PdfUploadResult {
  pageCount: number;
  pages: { link: string; fileName: string }[];
}

const PDF: UploadKind = { label: 'PDF', tooLarge: PDF_TOO_LARGE_MESSAGE };

/** The alt text of a PDF page's image: 'Page 2 of 5, report.pdf'. */
export function pdfPageAlt(fileName: string, page: number, pages: number): string {
  return `Page ${page} of ${pages}, ${fileName}`;
}

export function uploadPdf(file: File, token: string | null): Promise<PdfUploadResult> {
  return postFile<PdfUploadResult>(UPLOAD_FILE_ENDPOINT, file, token, PDF);
}

/** Uploads a PDF with the signed-in user's token; resolves to the stored page images' file names, in page order. */
export function usePdfUpload(): (file: File) => Promise<string[]> {
  const token = useAccessToken();
  return useCallback(async (file: File) => (await uploadPdf(file, await token())).pages.map((page) => page.fileName), [token]);
}
