//! Image uploads (spec 1 §7 "Uploads", contract: POST /upload, multipart field "file", bearer
//! token of a staff user). The server answers 201 {link, fileName, contentType, size}; records keep
//! `fileName`, shown from `/uploads/<fileName>`. Failures are logged as warnings (spec 1 §8).
import { useCallback } from 'react';
import { useAuth } from './auth';
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

async function failureMessage(response: Response): Promise<string> {
  if (response.status === 413) return 'The image is too large';
  try {
    const body = (await response.json()) as { code?: string; message?: string };
    if (body.message) return body.code ? `${body.code}::${body.message}` : body.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `Upload failed (HTTP ${response.status})`;
}

export async function uploadImage(file: File, token: string | null, fetchImpl: typeof fetch = fetch): Promise<UploadResult> {
  const body = new FormData();
  body.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetchImpl(UPLOAD_ENDPOINT, {
      method: 'POST',
      headers: { ...correlationHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
  } catch (error) {
    logger.warn(`Image upload failed: ${error instanceof Error ? error.message : String(error)}`, { file: file.name });
    throw new Error('Cannot connect to server', { cause: error });
  }
  if (!response.ok) {
    const message = await failureMessage(response);
    logger.warn(`Image upload failed: ${message}`, { file: file.name, status: response.status });
    throw new Error(message);
  }
  return (await response.json()) as UploadResult;
}

/** Uploads with the signed-in user's token; resolves to the stored file name. */
export function useImageUpload(): (file: File) => Promise<string> {
  const auth = useAuth();
  return useCallback(
    async (file: File) => {
      // An expired token is renewed first, as the GraphQL link does.
      const user = auth.user && !auth.user.expired ? auth.user : await auth.renew();
      return (await uploadImage(file, user?.access_token ?? null)).fileName;
    },
    [auth],
  );
}
