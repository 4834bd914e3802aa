//! Downloads a protected file (GET with the bearer token, like the contributor photo): the browser
//! cannot send the token with a plain link, so the file is fetched as a blob and saved through an
//! object URL and a temporary download link.
import { formatError } from '../../lib/errors';
import { correlationHeaders } from '../../lib/requestIds';

/** The server's REST error ({code, message}) as the app shows errors: 'CODE::message'. */
async function failureMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { code?: string; message?: string };
    if (body.message) return body.code ? `${body.code}::${body.message}` : body.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return `The download failed (HTTP ${response.status})`;
}

/** Fetches `url` with the token and saves it as `fileName`; throws the message to show. */
export async function downloadProtectedFile(url: string, token: string | null, fileName: string, fetchImpl: typeof fetch = fetch) {
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { ...correlationHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  } catch (error) {
    throw new Error(formatError(error), { cause: error });
  }
  if (!response.ok) throw new Error(await failureMessage(response));
  const objectUrl = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the browser's download already.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  }
}
