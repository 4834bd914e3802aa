import type { MockLink } from '@apollo/client/testing';
import { screen } from '@testing-library/react';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { READER_IDS } from '../testData';
import { ConfirmInterestPageDocument, RegisterChannelInterestDocument } from './__generated__/ConfirmInterestPage.generated';

const ID = READER_IDS.oilChannel;
const PATH = `/subscribe/channel/confirm-interest/${ID}`;

const pageMock: MockLink.MockedResponse = {
  request: { query: ConfirmInterestPageDocument, variables: { id: ID } },
  result: { data: { channel: { __typename: 'Channel', _id: ID, name: 'Oil Weekly', state: 'active' } } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

function registerMock(calls: { count: number }, errors?: GraphQLError[]): MockLink.MockedResponse {
  return {
    request: { query: RegisterChannelInterestDocument, variables: { channelId: ID } },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: () => {
      calls.count += 1;
      return errors ? { errors } : { data: { notifyRegisteredChannelInterest: true } };
    },
  };
}

function open(mocks: MockLink.MockedResponse[], path = PATH) {
  return renderApp({ path, user: testUser('Subscriber'), mocks });
}

describe('Confirm interest', () => {
  it('registers the interest once and thanks the reader', async () => {
    const calls = { count: 0 };
    open([pageMock, registerMock(calls)]);
    expect(await screen.findByRole('heading', { name: 'Thank you for your interest', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('We have told the Oil Weekly team')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Channel' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(calls.count).toBe(1);
  });

  it('thanks the reader even when the registration fails (spec 3 §8: only logged)', async () => {
    const calls = { count: 0 };
    open([pageMock, registerMock(calls, [new GraphQLError('Boom', { extensions: { code: 'INTERNAL' } })])]);
    expect(await screen.findByRole('heading', { name: 'Thank you for your interest', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.count).toBe(1);
  });

  it("shows 'Channel not found' for an id that is not an ObjectId, without registering", async () => {
    const calls = { count: 0 };
    open([registerMock(calls)], '/subscribe/channel/confirm-interest/oil');
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
    expect(calls.count).toBe(0);
  });
});
