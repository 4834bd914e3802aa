// jsdom lacks what Lexical looks for: first, before Lexical loads.
import '../../testing/lexicalDom';

import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  EditTrialPolicyDocument,
  EditTrialTermsDocument,
  TrialPolicyDocument,
  type EditTrialPolicyMutationVariables,
  type EditTrialTermsMutationVariables,
} from './__generated__/TrialPolicy.generated';
import { REGULATION } from './TrialPolicy';

const PATH = '/publisher/trial-policy';
const ADMIN = testUser('Administrator');
/** 5 Mar 2026 14:05 and 9 Apr 2026 09:30, local time. */
const MARCH_5 = new Date(2026, 2, 5, 14, 5).toISOString();
const APRIL_9 = new Date(2026, 3, 9, 9, 30).toISOString();
const TERMS_HTML = '<p>The trial ends by itself after its days.</p>';

function policy(overrides: Record<string, unknown> = {}) {
  return { __typename: 'TrialPolicy', maxDays: 90, coolOffDays: 365, termsRequired: true, version: 2, updatedAt: MARCH_5, ...overrides };
}

function terms(overrides: Record<string, unknown> = {}) {
  return { __typename: 'TrialTerms', version: 3, html: TERMS_HTML, createdAt: MARCH_5, ...overrides };
}

const screenMock: MockLink.MockedResponse = {
  request: { query: TrialPolicyDocument },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: { data: { trialPolicy: policy(), trialTerms: terms() } },
};

type Answer = { data: Record<string, unknown> } | { errors: GraphQLError[] };

/** A fake mutation: records each call's input and answers the next of `answers` (the last one again). */
function mutationMock<V>(query: MockLink.MockedResponse['request']['query'], calls: V[], answers: Answer[]): MockLink.MockedResponse {
  return {
    request: { query, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      calls.push(variables as V);
      return answers[Math.min(calls.length, answers.length) - 1];
    },
  };
}

const badInput = (fields: Record<string, string>) => new GraphQLError('Invalid input', { extensions: { code: 'BAD_USER_INPUT', fields } });

const policyForm = () => screen.getByRole('form', { name: 'Trial policy rules' });
const termsForm = () => screen.getByRole('form', { name: 'Trial terms' });
const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const MAX_DAYS = 'Longest trial (days)';
const COOL_OFF = 'Cool-off after a trial or subscription ends (days)';
const TERMS_REQUIRED = 'Readers accept the trial terms with their request';
const editor = () => screen.getByRole('textbox', { name: 'Trial terms' });

async function open(mocks: MockLink.MockedResponse[]) {
  renderApp({ path: PATH, user: ADMIN, mocks: [screenMock, ...mocks] });
  expect(await screen.findByRole('heading', { level: 1, name: 'Trial policy' })).toBeInTheDocument();
  await screen.findByRole('form', { name: 'Trial policy rules' });
}

beforeAll(async () => {
  await import('./TrialPolicy');
});

describe('TrialPolicy', () => {
  it('explains the regulation and shows the policy and the current terms', async () => {
    await open([]);
    expect(screen.getByText(REGULATION)).toBeInTheDocument();
    expect(REGULATION).toMatch(/MiFID II/);
    expect(REGULATION).toMatch(/three months/);
    expect(REGULATION).toMatch(/twelve months/);

    expect(field(MAX_DAYS)).toHaveValue('90');
    expect(field(COOL_OFF)).toHaveValue('365');
    expect(screen.getByRole('checkbox', { name: TERMS_REQUIRED })).toBeChecked();
    expect(within(policyForm()).getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByText('Last changed 05 Mar 2026 14:05.')).toBeInTheDocument();

    expect(screen.getByRole('heading', { level: 2, name: 'Trial terms (version 3, 05 Mar 2026)' })).toBeInTheDocument();
    expect(editor()).toHaveTextContent('The trial ends by itself after its days.');
    expect(within(termsForm()).getByRole('button', { name: 'Save as version 4' })).toBeInTheDocument();
    // Nothing to go back to: the screen is not opened from a list.
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('saves the policy with the version it was edited from, and the next save with the saved one', async () => {
    const user = userEvent.setup();
    const calls: EditTrialPolicyMutationVariables[] = [];
    await open([
      mutationMock(EditTrialPolicyDocument, calls, [
        { data: { editTrialPolicy: policy({ maxDays: 60, termsRequired: false, version: 3, updatedAt: APRIL_9 }) } },
        { data: { editTrialPolicy: policy({ maxDays: 60, coolOffDays: 0, termsRequired: false, version: 4, updatedAt: APRIL_9 }) } },
      ]),
    ]);

    await user.clear(field(MAX_DAYS));
    // Whole days only: anything but digits is dropped as it is typed.
    await user.type(field(MAX_DAYS), '6x0');
    expect(field(MAX_DAYS)).toHaveValue('60');
    await user.click(screen.getByRole('checkbox', { name: TERMS_REQUIRED }));
    await user.click(within(policyForm()).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].item).toEqual({ maxDays: 60, coolOffDays: 365, termsRequired: false, version: 2 });
    expect(await screen.findByText('Trial policy saved.')).toBeInTheDocument();
    expect(await screen.findByText('Last changed 09 Apr 2026 09:30.')).toBeInTheDocument();
    expect(field(MAX_DAYS)).toHaveValue('60');
    expect(screen.getByRole('checkbox', { name: TERMS_REQUIRED })).not.toBeChecked();

    await user.clear(field(COOL_OFF));
    await user.type(field(COOL_OFF), '0');
    await user.click(within(policyForm()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].item).toEqual({ maxDays: 60, coolOffDays: 0, termsRequired: false, version: 3 });
  });

  it('checks the days before saving, and shows the field errors and the refusals the server answers', async () => {
    const user = userEvent.setup();
    const calls: EditTrialPolicyMutationVariables[] = [];
    await open([
      mutationMock(EditTrialPolicyDocument, calls, [
        { errors: [badInput({ 'item.coolOffDays': 'Enter a whole number of days from 0 to 3650' })] },
        {
          errors: [new GraphQLError('The trial policy was changed by someone else: reload it.', { extensions: { code: 'CONFLICT' } })],
        },
      ]),
    ]);

    await user.clear(field(MAX_DAYS));
    await user.type(field(MAX_DAYS), '101');
    await user.clear(field(COOL_OFF));
    await user.type(field(COOL_OFF), '3651');
    await user.click(within(policyForm()).getByRole('button', { name: 'Save' }));
    expect(field(MAX_DAYS)).toHaveAccessibleDescription(/^Enter a whole number of days from 1 to 100/);
    expect(field(COOL_OFF)).toHaveAccessibleDescription(/^Enter a whole number of days from 0 to 3650/);
    expect(field(MAX_DAYS)).toHaveFocus();
    expect(calls).toHaveLength(0);

    // The server's field message lands under its field (named under the argument: item.coolOffDays).
    await user.clear(field(MAX_DAYS));
    await user.type(field(MAX_DAYS), '30');
    await user.clear(field(COOL_OFF));
    await user.type(field(COOL_OFF), '400');
    await user.click(within(policyForm()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    await waitFor(() => expect(field(COOL_OFF)).toHaveAccessibleDescription(/^Enter a whole number of days from 0 to 3650/));
    expect(field(MAX_DAYS)).not.toHaveAccessibleDescription(/Enter/);
    expect(within(policyForm()).getByRole('alert')).toHaveTextContent('BAD_USER_INPUT::Invalid input');

    // Another administrator saved first: the refusal is shown as every other.
    await user.clear(field(COOL_OFF));
    await user.type(field(COOL_OFF), '200');
    await user.click(within(policyForm()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].item).toEqual({ maxDays: 30, coolOffDays: 200, termsRequired: true, version: 2 });
    await waitFor(() =>
      expect(within(policyForm()).getByRole('alert')).toHaveTextContent(
        'CONFLICT::The trial policy was changed by someone else: reload it.',
      ),
    );
    expect(screen.queryByText('Trial policy saved.')).not.toBeInTheDocument();
  });

  it('saves the edited terms as the next version, then offers the one after', async () => {
    const user = userEvent.setup();
    const calls: EditTrialTermsMutationVariables[] = [];
    const saved = '<p>Cancel any time. The trial ends by itself after its days.</p>';
    await open([
      mutationMock(EditTrialTermsDocument, calls, [{ data: { editTrialTerms: terms({ version: 4, html: saved, createdAt: APRIL_9 }) } }]),
    ]);

    await user.click(editor());
    await user.keyboard('Cancel any time. ');
    await user.click(within(termsForm()).getByRole('button', { name: 'Save as version 4' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].item.version).toBe(3);
    expect(calls[0].item.html).toContain('Cancel any time.');
    expect(await screen.findByText('Trial terms saved as version 4.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Trial terms (version 4, 09 Apr 2026)' })).toBeInTheDocument();
    expect(within(termsForm()).getByRole('button', { name: 'Save as version 5' })).toBeInTheDocument();
    expect(editor()).toHaveTextContent('Cancel any time. The trial ends by itself after its days.');
  }, 20_000);

  it('shows the server’s refusal of empty terms under the editor', async () => {
    const user = userEvent.setup();
    const calls: EditTrialTermsMutationVariables[] = [];
    await open([mutationMock(EditTrialTermsDocument, calls, [{ errors: [badInput({ html: 'This field is required' })] }])]);
    await user.click(editor());
    await user.keyboard('x');
    await user.click(within(termsForm()).getByRole('button', { name: 'Save as version 4' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(await within(termsForm()).findByText('This field is required')).toBeInTheDocument();
    expect(within(termsForm()).getByRole('alert')).toHaveTextContent('BAD_USER_INPUT::Invalid input');
    expect(screen.getByRole('heading', { level: 2, name: 'Trial terms (version 3, 05 Mar 2026)' })).toBeInTheDocument();
  }, 20_000);

  it.each(['Editor', 'Contributor'] as const)('is for Administrators only (%s: Access Denied)', async (role) => {
    renderApp({ path: PATH, user: testUser(role), mocks: [screenMock] });
    expect(await screen.findByText(/^Access Denied/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Trial policy rules' })).not.toBeInTheDocument();
  });
});
