//! Uploads (spec 1 §7 "Uploads", contract: POST /upload, multipart field "file", bearer
//! token of a staff user). The server answers 201 {link, fileName, contentType, size}; records keep
//! `fileName`, shown from `/uploads/<fileName>`. Failures are logged as warnings (spec 1 §8).
import { useCallback } from 'react';
import { useAccessToken } from './auth';
import { authorizedFetch, HttpError } from './authorizedFetch';
import { logger } from './logger';

export const UPLOAD_ENDPOINT = '/upload';

export interface UploadResult {
  link: string;
  fileName: string;
  contentType: string;
  size: number;
}

/** Where a stored image is served. */
export function uploadedImageUrl(fileName: string): string {
  return `/uploads/${encodeURIComponent(fileName)}`;
}

/** How a kind of upload names itself in logs and says it is too large (HTTP 413). */
export interface UploadKind {
  label: string;
  tooLarge: string;
}

const IMAGE: UploadKind = { label: 'Image', tooLarge: 'The image is too large' };

/** The message to show for a refused upload: the kind's own for 413, else the server's error or the status. */
function failureMessage(error: HttpError, kind: UploadKind): string {
  if (error.status === 413) return kind.tooLarge;
  return error.display ?? `Upload failed (HTTP ${error.status})`;
}

/**
 * POSTs `file` as the multipart field "file" to one of the upload endpoints with the bearer token
 * and the correlation headers; resolves to the JSON answer, or throws the message to show.
 */
export async function postFile<T>(endpoint: string, file: File, token: string | null, kind: UploadKind): Promise<T> {
  const body = new FormData();
  body.append('file', file, file.name);
  let response: Response;
  try {
    response = await authorizedFetch(endpoint, { method: 'POST', token, body });
  } catch (error) {
    if (error instanceof HttpError) {
      const message = failureMessage(error, kind);
      logger.warn(`${kind.label} upload failed: ${message}`, { file: file.name, status: error.status });
      throw new Error(message, { cause: error });
    }
    logger.warn(`${kind.label} upload failed: ${error instanceof Error ? error.message : String(error)}`, { file: file.name });
    throw new Error('Cannot connect to server', { cause: error });
  }
  return (await response.json()) as T;
}

export function uploadImage(file: File, token: string | null): Promise<UploadResult> {
  return postFile<UploadResult>(UPLOAD_ENDPOINT, file, token, IMAGE);
}

/** Uploads with the signed-in user's token; resolves to the stored file name. */
export function useImageUpload(): (file: File) => Promise<string> {
  const token = useAccessToken();
  return useCallback(async (file: File) => (await uploadImage(file, await token())).fileName, [token]);
}
