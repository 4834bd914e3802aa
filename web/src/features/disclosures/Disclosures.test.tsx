// jsdom lacks what Lexical looks for: first, before Lexical loads.
import '../../testing/lexicalDom';

import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { tableCells } from '../../testing/tables';
import {
  DisclosuresScreenDocument,
  EditDisclosureDocument,
  type EditDisclosureMutationVariables,
} from './__generated__/Disclosures.generated';

const PATH = '/publisher/disclosures';
const CHANNEL = '65c000000000000000000001';
const DESK = '65c000000000000000000010';

const screenMock: MockLink.MockedResponse = {
  request: { query: DisclosuresScreenDocument },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: {
    data: {
      disclosures: [
        {
          __typename: 'Disclosure',
          scopeType: 'channel',
          scopeId: CHANNEL,
          scopeName: 'Metals Weekly',
          version: 2,
          html: '<p>We hold copper positions.</p>',
          createdAt: new Date(2026, 2, 5, 14, 5).toISOString(),
          createdByName: 'Ada Admin',
        },
      ],
      allChannels: [{ __typename: 'Channel', _id: CHANNEL, name: 'Metals Weekly' }],
      desks: [{ __typename: 'Desk', _id: DESK, name: 'Metals desk' }],
    },
  },
};

function editMock(calls: EditDisclosureMutationVariables[]): MockLink.MockedResponse {
  return {
    request: { query: EditDisclosureDocument, variables: () => true },
    result: (variables: Record<string, unknown>) => {
      const vars = variables as EditDisclosureMutationVariables;
      calls.push(vars);
      return {
        data: {
          editDisclosure: {
            __typename: 'Disclosure',
            scopeType: vars.item.scopeType,
            scopeId: vars.item.scopeId,
            version: vars.item.version + 1,
            html: vars.item.html,
          },
        },
      };
    },
  };
}

beforeAll(async () => {
  await import('./Disclosures');
});

describe('Disclosures', () => {
  it('lists the disclosures in force with their versions', async () => {
    renderApp({ path: PATH, user: testUser('Administrator'), mocks: [screenMock] });
    const table = await screen.findByRole('table', { name: 'Disclosures in force' });
    expect(tableCells(table)[1]).toEqual(['Channel: Metals Weekly', '2', 'In force', '05 Mar 2026 14:05 by Ada Admin', 'Edit']);
    expect(screen.getByText('Current: version 2, saved 05 Mar 2026 14:05.')).toBeInTheDocument();
  });

  it("writes a desk's first disclosure as version 1", async () => {
    const user = userEvent.setup();
    const calls: EditDisclosureMutationVariables[] = [];
    renderApp({ path: PATH, user: testUser('Administrator'), mocks: [screenMock, editMock(calls)] });
    await screen.findByRole('table', { name: 'Disclosures in force' });
    await user.selectOptions(screen.getByLabelText('For'), `desk:${DESK}`);
    expect(screen.getByText('No disclosure yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Disclosure text' }));
    await user.keyboard('Analyst certification');
    await user.click(screen.getByRole('button', { name: 'Save as version 1' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].item).toMatchObject({ scopeType: 'desk', scopeId: DESK, version: 0 });
    expect(calls[0].item.html).toContain('Analyst certification');
    expect(await screen.findByText('Disclosure saved as version 1.')).toBeInTheDocument();
  });

  it('saves an unchanged text as it is (never an empty one by accident)', async () => {
    const user = userEvent.setup();
    const calls: EditDisclosureMutationVariables[] = [];
    renderApp({ path: PATH, user: testUser('Administrator'), mocks: [screenMock, editMock(calls)] });
    await screen.findByRole('table', { name: 'Disclosures in force' });
    await user.click(screen.getByRole('button', { name: 'Save as version 3' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].item).toEqual({ scopeType: 'channel', scopeId: CHANNEL, version: 2, html: '<p>We hold copper positions.</p>' });
  });

  it.each(['Editor', 'Contributor'] as const)('is for Administrators only (%s: Access Denied)', async (role) => {
    renderApp({ path: PATH, user: testUser(role), mocks: [screenMock] });
    expect(await screen.findByText(/^Access Denied/)).toBeInTheDocument();
  });
});
