//! The editor's uploads (spec 2 "Editor uploads"): images (jpeg, jpg, png, gif) go through the
//! app's image upload (lib/upload.ts); a PDF (at most 20 MB) goes to `POST /upload-file`, which
//! answers 201 {pageCount, pages: [{link, fileName}]} with one stored image per page, in order.
//! Both send the signed-in user's bearer token and the correlation headers.
import { useCallback } from 'react';
import { IMAGE_ACCEPT, IMAGE_TYPE_MESSAGE, IMAGE_TYPES } from '../admin/fields';
import { useAuth } from '../../lib/auth';
import { logger } from '../../lib/logger';
import { correlationHeaders } from '../../lib/requestIds';

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

async function failureMessage(response: Response): Promise<string> {
  if (response.status === 413) return PDF_TOO_LARGE_MESSAGE;
  try {
    const body = (await response.json()) as { code?: string; message?: string };
    if (body.message) return body.code ? `${body.code}::${body.message}` : body.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `Upload failed (HTTP ${response.status})`;
}

export async function uploadPdf(file: File, token: string | null, fetchImpl: typeof fetch = fetch): Promise<PdfUploadResult> {
  const body = new FormData();
  body.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetchImpl(UPLOAD_FILE_ENDPOINT, {
      method: 'POST',
      headers: { ...correlationHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
  } catch (error) {
    logger.warn(`PDF upload failed: ${error instanceof Error ? error.message : String(error)}`, { file: file.name });
    throw new Error('Cannot connect to server', { cause: error });
  }
  if (!response.ok) {
    const message = await failureMessage(response);
    logger.warn(`PDF upload failed: ${message}`, { file: file.name, status: response.status });
    throw new Error(message);
  }
  return (await response.json()) as PdfUploadResult;
}

/** Uploads a PDF with the signed-in user's token; resolves to the stored page images' file names, in page order. */
export function usePdfUpload(): (file: File) => Promise<string[]> {
  const auth = useAuth();
  return useCallback(
    async (file: File) => {
      // An expired token is renewed first, as the image upload does.
      const user = auth.user && !auth.user.expired ? auth.user : await auth.renew();
      const result = await uploadPdf(file, user?.access_token ?? null);
      return result.pages.map((page) => page.fileName);
    },
    [auth],
  );
}
