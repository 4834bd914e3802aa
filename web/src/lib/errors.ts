//! The one place where server and network errors become what the user sees and what is logged
//! (spec 1 §8, spec 3 §8, DESIGN §6 error codes). Every error code of the contract has a case here.
import { CombinedGraphQLErrors, ServerError, ServerParseError } from '@apollo/client/errors';
import type { GraphQLFormattedError } from 'graphql';

/** Error codes of the API contract (`errors[].extensions.code`). */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'DUPLICATE'
  | 'TRIAL_EXPIRED'
  | 'INTERNAL'
  // Answered with HTTP 429 / 503 and `Retry-After` (`extensions.retryAfter`): too many requests,
  // or the database briefly unreachable. Temporary: the same action works again later.
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  // Raised before any resolver runs: a request that is not GraphQL, or one the schema refuses
  // (unknown field, depth or complexity limit). Shown as CODE::message like the others.
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED';

export const MESSAGES = {
  network: 'Cannot connect to server',
  database: 'Cannot connect to database',
  duplicate: 'Cannot insert item due to name duplication',
} as const;

/** Text the server puts in every error caused by an ended trial. */
export const TRIAL_EXPIRED_TEXT = 'Trial period has expired';

const GRAPHQL_PREFIX = /^(?:GraphQL error: )+/;
const DATABASE_UNREACHABLE = /ECONNREFUSED|connection refused|ENOTFOUND|EAI_AGAIN|host not found|getaddrinfo/i;
const DUPLICATE_KEY = /duplicate key/i;
const FETCH_FAILED = /^(?:Failed to fetch|fetch failed|NetworkError when attempting to fetch resource|Load failed|Network request failed)/i;

/** Strips the 'GraphQL error: ' prefix and applies the spec's message mappings. */
export function cleanMessage(message: string): string {
  const text = message.replace(GRAPHQL_PREFIX, '').trim();
  if (DATABASE_UNREACHABLE.test(text)) return MESSAGES.database;
  if (DUPLICATE_KEY.test(text)) return MESSAGES.duplicate;
  return text;
}

export function errorCode(error: GraphQLFormattedError): string | undefined {
  const code = error.extensions?.code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** One GraphQL error as the UI shows it: 'CODE::message' (or the message when there is no code). */
export function formatGraphQLError(error: GraphQLFormattedError): string {
  const message = cleanMessage(error.message);
  const code = errorCode(error);
  if (!code || message.startsWith(`${code}::`)) return message;
  return `${code}::${message}`;
}

/**
 * Field messages of a BAD_USER_INPUT error (`extensions.fields`: field name → message). A
 * DUPLICATE error names its field the same way (the taxonomy contract: `fields.name`).
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!CombinedGraphQLErrors.is(error)) return {};
  const result: Record<string, string> = {};
  for (const e of error.errors) {
    const fields = e.extensions?.fields;
    const code = errorCode(e);
    if ((code !== 'BAD_USER_INPUT' && code !== 'DUPLICATE') || !fields || typeof fields !== 'object') continue;
    for (const [name, message] of Object.entries(fields as Record<string, unknown>)) {
      if (typeof message === 'string') result[name] = message;
    }
  }
  return result;
}

/** Whether any GraphQL error of `error` carries `code` (a screen leaving on FORBIDDEN). */
export function hasErrorCode(error: unknown, code: ErrorCode): boolean {
  return CombinedGraphQLErrors.is(error) && error.errors.some((e) => errorCode(e) === code);
}

/** True for failures below GraphQL: the request did not reach the server or no GraphQL answer came back. */
export function isNetworkError(error: unknown): boolean {
  if (ServerError.is(error) || ServerParseError.is(error)) return true;
  // fetch() rejects with a TypeError whose text depends on the browser.
  return error instanceof Error && FETCH_FAILED.test(error.message);
}

/** The OIDC client's "the identity provider needs an interactive sign-in" error. */
export function isLoginRequired(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { error?: unknown; message?: unknown };
  return e.error === 'login_required' || e.message === 'login_required';
}

export function isTrialExpiredError(error: GraphQLFormattedError): boolean {
  return errorCode(error) === 'TRIAL_EXPIRED' || error.message.includes(TRIAL_EXPIRED_TEXT);
}

/**
 * The GraphQL errors in the body of a non-2xx answer (429 and 503 carry `{errors: [...]}` with
 * their code), so the user reads 'Too many requests…' rather than 'Cannot connect to server'.
 */
function errorsOfServerError(error: unknown): GraphQLFormattedError[] {
  if (!ServerError.is(error)) return [];
  try {
    const body: unknown = JSON.parse(error.bodyText);
    const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
    if (!Array.isArray(errors)) return [];
    return errors.filter(
      (e): e is GraphQLFormattedError => !!e && typeof e === 'object' && typeof e.message === 'string' && !!errorCode(e),
    );
  } catch {
    return [];
  }
}

/** The text to show for any error a form or screen receives (alerts, toasts, error pages). */
export function formatError(error: unknown): string {
  if (CombinedGraphQLErrors.is(error)) {
    return error.errors.map(formatGraphQLError).join('\n');
  }
  const answered = errorsOfServerError(error);
  if (answered.length > 0) return answered.map(formatGraphQLError).join('\n');
  if (isNetworkError(error)) return MESSAGES.network;
  if (error instanceof Error) return cleanMessage(error.message);
  if (typeof error === 'string') return cleanMessage(error);
  return MESSAGES.network;
}

/**
 * Errors flagged as warnings by the server are logged at warn level (spec 1 §8): the server sets
 * `extensions.warning: true` on what the user's input or someone else's change explains
 * (BAD_USER_INPUT, CONFLICT, DUPLICATE).
 */
export function isWarning(error: GraphQLFormattedError): boolean {
  return error.extensions?.warning === true;
}

export interface ErrorReporterDeps {
  logger: {
    warn(message: string, context?: Record<string, unknown>): void;
    error(message: string, context?: Record<string, unknown>): void;
  };
  /** Moves the trial state to TrialExpired (spec 1 §4). */
  onTrialExpired: () => void;
  /** Reloads the page, so the sign-in starts again (login_required). */
  reload: () => void;
}

export interface OperationInfo {
  operationName?: string;
  requestId?: string;
}

/** Applies spec 1 §8 to an error coming out of an operation: trial state, logging, reload. */
export function reportOperationError(error: unknown, operation: OperationInfo, deps: ErrorReporterDeps): void {
  const context = { requestId: operation.requestId, operationName: operation.operationName };
  if (CombinedGraphQLErrors.is(error)) {
    for (const e of error.errors) {
      if (isTrialExpiredError(e)) {
        // Expected for an ended trial: the state change shows the Trial ended screen.
        deps.onTrialExpired();
        continue;
      }
      const entry = { ...context, code: errorCode(e), path: e.path };
      if (isWarning(e)) deps.logger.warn(formatGraphQLError(e), entry);
      else deps.logger.error(formatGraphQLError(e), entry);
    }
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  deps.logger.error(`Network error: ${message}`, context);
  if (isLoginRequired(error)) deps.reload();
}
