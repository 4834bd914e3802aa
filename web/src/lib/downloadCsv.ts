//! Downloads a protected file (GET with the bearer token, like the contributor photo): the browser
//! cannot send the token with a plain link, so the file is fetched as a blob and saved through an
//! object URL and a temporary download link.
import { authorizedFetch, HttpError } from './authorizedFetch';
import { formatError } from './errors';

/** The file name of a `Content-Disposition: attachment; filename="…"` answer, if it has one. */
export function attachmentName(disposition: string | null): string | null {
  return disposition?.match(/filename="([^"]+)"/)?.[1] ?? null;
}

/**
 * Fetches `url` with the token and saves it under the name the server gives it (its exports name
 * the file after the firm and the day), or `fileName`; throws the message to show.
 */
export async function downloadProtectedFile(url: string, token: string | null, fileName: string) {
  let response: Response;
  try {
    response = await authorizedFetch(url, { token });
  } catch (error) {
    if (error instanceof HttpError) throw new Error(error.display ?? `The download failed (HTTP ${error.status})`, { cause: error });
    throw new Error(formatError(error), { cause: error });
  }
  const objectUrl = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = attachmentName(response.headers.get('content-disposition')) ?? fileName;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the browser's download already.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  }
}
