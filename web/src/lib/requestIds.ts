//! Correlation ids sent on every call to the server (GraphQL, /log, /version), so one browser
//! session's requests can be found in the server's logs (spec 1 §7, DESIGN §6 "Headers").
import { v4 as uuidv4 } from 'uuid';

const SESSION_KEY = 'insights.sessionId';

let memorySessionId: string | null = null;

/** A new id for one request. */
export function newRequestId(): string {
  return uuidv4();
}

/** One id per browser session (tab), kept in sessionStorage so reloads keep it. */
export function getSessionId(): string {
  try {
    const stored = window.sessionStorage.getItem(SESSION_KEY);
    if (stored) return stored;
    const created = uuidv4();
    window.sessionStorage.setItem(SESSION_KEY, created);
    return created;
  } catch {
    // Storage can be disabled (privacy modes): fall back to one id per page load.
    memorySessionId ??= uuidv4();
    return memorySessionId;
  }
}

/** Both correlation headers for a request made outside Apollo. */
export function correlationHeaders(requestId: string = newRequestId()): Record<string, string> {
  return { 'x-request-id': requestId, 'x-session-id': getSessionId() };
}
