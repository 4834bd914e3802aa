import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import type { GraphQLFormattedError } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { cleanMessage, fieldErrors, formatError, formatGraphQLError, MESSAGES, reportOperationError } from './errors';

function graphQLErrors(...errors: GraphQLFormattedError[]) {
  return new CombinedGraphQLErrors({ data: null, errors });
}

function deps() {
  return { logger: { warn: vi.fn(), error: vi.fn() }, onTrialExpired: vi.fn(), reload: vi.fn() };
}

describe('cleanMessage', () => {
  it("strips the 'GraphQL error: ' prefix", () => {
    expect(cleanMessage('GraphQL error: Name is taken')).toBe('Name is taken');
    expect(cleanMessage('GraphQL error: GraphQL error: twice')).toBe('twice');
  });

  it.each([
    'connect ECONNREFUSED 127.0.0.1:5432',
    'Connection refused (os error 111)',
    'getaddrinfo ENOTFOUND db.internal',
    'could not translate: host not found',
  ])("maps '%s' to 'Cannot connect to database'", (message) => {
    expect(cleanMessage(message)).toBe(MESSAGES.database);
  });

  it('maps a duplicate key violation to the name duplication message', () => {
    expect(cleanMessage('duplicate key value violates unique constraint "tag_name_key"')).toBe(
      'Cannot insert item due to name duplication',
    );
  });

  it('keeps other messages', () => {
    expect(cleanMessage('This field is required')).toBe('This field is required');
  });
});

describe('formatError', () => {
  it("shows GraphQL errors as 'CODE::message'", () => {
    const error = graphQLErrors({ message: 'Tag not found', extensions: { code: 'NOT_FOUND' } });
    expect(formatError(error)).toBe('NOT_FOUND::Tag not found');
  });

  it('applies the message mappings inside the code form', () => {
    const error = graphQLErrors({ message: 'GraphQL error: duplicate key value', extensions: { code: 'DUPLICATE' } });
    expect(formatError(error)).toBe('DUPLICATE::Cannot insert item due to name duplication');
  });

  it('does not prefix the code twice, and shows a message without code as it is', () => {
    expect(formatGraphQLError({ message: 'CONFLICT::stale version', extensions: { code: 'CONFLICT' } })).toBe('CONFLICT::stale version');
    expect(formatGraphQLError({ message: 'plain' })).toBe('plain');
  });

  it('joins several GraphQL errors, one per line', () => {
    const error = graphQLErrors({ message: 'a', extensions: { code: 'FORBIDDEN' } }, { message: 'b', extensions: { code: 'INTERNAL' } });
    expect(formatError(error)).toBe('FORBIDDEN::a\nINTERNAL::b');
  });

  it("shows network errors as 'Cannot connect to server'", () => {
    expect(formatError(new TypeError('Failed to fetch'))).toBe(MESSAGES.network);
    expect(formatError(new TypeError('NetworkError when attempting to fetch resource.'))).toBe(MESSAGES.network);
    const serverError = new ServerError('Response not successful: Received status code 502', {
      response: new Response('bad gateway', { status: 502 }),
      bodyText: 'bad gateway',
    });
    expect(formatError(serverError)).toBe(MESSAGES.network);
  });

  it('shows the coded errors of a 429 or 503 answer rather than a connection failure', () => {
    const body = (code: string, message: string) => JSON.stringify({ errors: [{ message, extensions: { code, retryAfter: 3 } }] });
    const answer = (status: number, bodyText: string) =>
      new ServerError(`Response not successful: Received status code ${status}`, {
        response: new Response(bodyText, { status }),
        bodyText,
      });
    expect(formatError(answer(429, body('RATE_LIMITED', 'Too many requests, try again in 3 s')))).toBe(
      'RATE_LIMITED::Too many requests, try again in 3 s',
    );
    expect(formatError(answer(503, body('UNAVAILABLE', 'The database is unreachable')))).toBe('UNAVAILABLE::The database is unreachable');
    expect(formatError(answer(503, '{"errors":[{"message":"no code"}]}'))).toBe(MESSAGES.network);
    expect(formatError(answer(503, 'not json'))).toBe(MESSAGES.network);
  });

  it('shows other errors with the prefix stripped', () => {
    expect(formatError(new Error('GraphQL error: Something else'))).toBe('Something else');
  });
});

describe('fieldErrors', () => {
  it('reads the field messages of BAD_USER_INPUT', () => {
    const error = graphQLErrors({
      message: 'Invalid input',
      extensions: { code: 'BAD_USER_INPUT', fields: { name: 'This field is required' } },
    });
    expect(fieldErrors(error)).toEqual({ name: 'This field is required' });
    expect(fieldErrors(new Error('x'))).toEqual({});
  });

  it('reads the field a DUPLICATE error names, and ignores fields of other codes', () => {
    const duplicate = graphQLErrors({
      message: 'Cannot insert item due to name duplication',
      extensions: { code: 'DUPLICATE', fields: { name: 'Cannot insert item due to name duplication' } },
    });
    expect(fieldErrors(duplicate)).toEqual({ name: 'Cannot insert item due to name duplication' });
    expect(fieldErrors(graphQLErrors({ message: 'stale', extensions: { code: 'CONFLICT', fields: { version: 'stale' } } }))).toEqual({});
  });
});

describe('reportOperationError', () => {
  const operation = { operationName: 'TagList', requestId: 'req-1' };

  it("sets the trial to expired on 'Trial period has expired' and logs nothing", () => {
    const d = deps();
    reportOperationError(graphQLErrors({ message: 'Trial period has expired', extensions: { code: 'TRIAL_EXPIRED' } }), operation, d);
    expect(d.onTrialExpired).toHaveBeenCalledTimes(1);
    expect(d.logger.error).not.toHaveBeenCalled();
    expect(d.logger.warn).not.toHaveBeenCalled();
  });

  it('recognises the trial text even without the code', () => {
    const d = deps();
    reportOperationError(graphQLErrors({ message: 'GraphQL error: Trial period has expired for user' }), operation, d);
    expect(d.onTrialExpired).toHaveBeenCalledTimes(1);
  });

  // The server flags BAD_USER_INPUT, CONFLICT and DUPLICATE with `extensions.warning: true`
  // (src/error.rs is_warning; tests/api errors_the_user_can_act_on_are_flagged_as_warnings).
  it('logs errors flagged as warnings at warn level', () => {
    const d = deps();
    const stale = 'This item was changed by someone else. Reload it and apply your changes again.';
    reportOperationError(graphQLErrors({ message: stale, extensions: { code: 'CONFLICT', warning: true } }), operation, d);
    expect(d.logger.warn).toHaveBeenCalledWith(`CONFLICT::${stale}`, expect.objectContaining({ requestId: 'req-1', code: 'CONFLICT' }));
    expect(d.logger.error).not.toHaveBeenCalled();
  });

  it('takes only the flag the server sets, not a level of its own', () => {
    const d = deps();
    reportOperationError(graphQLErrors({ message: 'Slow', extensions: { code: 'INTERNAL', level: 'warning' } }), operation, d);
    expect(d.logger.error).toHaveBeenCalledWith('INTERNAL::Slow', expect.objectContaining({ requestId: 'req-1' }));
    expect(d.logger.warn).not.toHaveBeenCalled();
  });

  it('logs other GraphQL errors as errors with the request id', () => {
    const d = deps();
    reportOperationError(graphQLErrors({ message: 'Boom', extensions: { code: 'INTERNAL' } }), operation, d);
    expect(d.logger.error).toHaveBeenCalledWith(
      'INTERNAL::Boom',
      expect.objectContaining({ requestId: 'req-1', operationName: 'TagList', code: 'INTERNAL' }),
    );
    expect(d.onTrialExpired).not.toHaveBeenCalled();
    expect(d.reload).not.toHaveBeenCalled();
  });

  it('logs a network error and does not reload for an ordinary one', () => {
    const d = deps();
    reportOperationError(new TypeError('Failed to fetch'), operation, d);
    expect(d.logger.error).toHaveBeenCalledWith('Network error: Failed to fetch', expect.objectContaining({ requestId: 'req-1' }));
    expect(d.reload).not.toHaveBeenCalled();
  });

  it('reloads the page when the network error is login_required', () => {
    const d = deps();
    const error = Object.assign(new Error('login_required'), { error: 'login_required' });
    reportOperationError(error, operation, d);
    expect(d.logger.error).toHaveBeenCalled();
    expect(d.reload).toHaveBeenCalledTimes(1);
  });
});
