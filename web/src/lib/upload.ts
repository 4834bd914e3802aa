//! Uploads (spec 1 §7 "Uploads", contract: POST /upload, multipart field "file", bearer
//! token of a staff user). The server answers 201 {link, fileName, contentType, size}; records keep
//! `fileName`, shown from `/uploads/<fileName>`. Failures are logged as warnings (spec 1 §8).
import { useCallback } from 'react';
import { useAccessToken } from './auth';
import { logger } from './logger';
import { correlationHeaders } from './requestIds';

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

async function failureMessage(response: Response, kind: UploadKind): Promise<string> {
  if (response.status === 413) return kind.tooLarge;
  try {
    const body = (await response.json()) as { code?: string; message?: string };
    if (body.message) return body.code ? `${body.code}::${body.message}` : body.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `Upload failed (HTTP ${response.status})`;
}

/**
 * POSTs `file` as the multipart field "file" to one of the upload endpoints with the bearer token
 * and the correlation headers; resolves to the JSON answer, or throws the message to show.
 */
export async function postFile<T>(
  endpoint: string,
  file: File,
  token: string | null,
  kind: UploadKind,
  fetchImpl: typeof fetch = fetch,
): Promise<T> {
  const body = new FormData();
  body.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { ...correlationHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
  } catch (error) {
    logger.warn(`${kind.label} upload failed: ${error instanceof Error ? error.message : String(error)}`, { file: file.name });
    throw new Error('Cannot connect to server', { cause: error });
  }
  if (!response.ok) {
    const message = await failureMessage(response, kind);
    logger.warn(`${kind.label} upload failed: ${message}`, { file: file.name, status: response.status });
    throw new Error(message);
  }
  return (await response.json()) as T;
}

export function uploadImage(file: File, token: string | null, fetchImpl: typeof fetch = fetch): Promise<UploadResult> {
  return postFile<UploadResult>(UPLOAD_ENDPOINT, file, token, IMAGE, fetchImpl);
}

/** Uploads with the signed-in user's token; resolves to the stored file name. */
export function useImageUpload(): (file: File) => Promise<string> {
  const token = useAccessToken();
  return useCallback(async (file: File) => (await uploadImage(file, await token())).fileName, [token]);
}
