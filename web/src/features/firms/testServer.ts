//! The part of the server the staff firm page and 'My firm' share, for their tests: the firm's
//! readers, the oil subscription's seats (2) and who holds them, the seat mutations, the reading
//! and the pending invitations, each answering from one `state` the mutations change.
import type { MockLink } from '@apollo/client/testing';
import { vi } from 'vitest';
import { FirmInvitationsDocument, WithdrawFirmInvitationDocument } from './__generated__/FirmInvitations.generated';
import { FirmReadersDocument } from './__generated__/FirmReaders.generated';
import {
  AssignFirmSeatDocument,
  FirmSeatCandidatesDocument,
  FirmSeatsDocument,
  ReleaseFirmSeatDocument,
} from './__generated__/FirmSeats.generated';
import { FirmReadershipDocument } from './__generated__/FirmUsage.generated';
import { ADA, FIRM_IDS, member, type user } from './testData';

type Person = ReturnType<typeof user>;
type Member = ReturnType<typeof member>;

/** The oil subscription's seats. */
export const OIL_SEATS = 2;

export function invitation(email: string, invitedByName: string | null = 'Ada Analyst') {
  return { __typename: 'FirmInvitation', email, invitedAt: new Date(2026, 2, 2, 9, 15).toISOString(), invitedByName };
}

/** `firmReadership`'s answer (its rows with their __typename). */
export interface Reading {
  channels: unknown[];
  reads: unknown[];
}

export const NO_READING: Reading = { channels: [], reads: [] };

export interface FirmServerOptions {
  /** The firm's members; their oil seats follow `state.holders`. */
  members: Member[];
  /** The assignment answers 'All 2 seats are in use'. */
  seatsFull?: boolean;
  reading?: Reading;
  invitations?: ReturnType<typeof invitation>[];
}

const always = { maxUsageCount: Number.POSITIVE_INFINITY };

export function firmServer({ members, seatsFull = false, reading = NO_READING, invitations = [] }: FirmServerOptions) {
  const state = {
    members,
    holders: [{ __typename: 'FirmSeatHolder', user: ADA as Person, assignedAt: new Date(2026, 0, 7).toISOString() }],
    invitations,
  };
  const calls = { assign: vi.fn(), release: vi.fn(), withdraw: vi.fn() };
  const seatChannelIds = (u: Person) => (state.holders.some((h) => h.user._id === u._id) ? [FIRM_IDS.oilChannel] : []);
  const search = (v: { params?: { search?: string | null } | null }) => {
    const q = v.params?.search?.toLowerCase() ?? '';
    return state.members.filter((m) => m.user.name.toLowerCase().includes(q) || m.user.email.includes(q));
  };
  const firm = (fields: Record<string, unknown>) => ({ findFirmById: { __typename: 'Firm', _id: FIRM_IDS.acme, ...fields } });

  const mocks: MockLink.MockedResponse[] = [
    {
      request: { query: FirmReadersDocument, variables: () => true },
      ...always,
      result: (v: { params?: { search?: string | null } }) => {
        const found = search(v).map((m) => ({ ...m, seatChannelIds: seatChannelIds(m.user) }));
        return { data: firm({ readers: { __typename: 'FirmReaderPage', total: found.length, readers: found } }) };
      },
    },
    {
      request: { query: FirmSeatCandidatesDocument, variables: () => true },
      ...always,
      result: (v: { params?: { search?: string | null } }) => {
        const readers = search(v).map((m) => ({ __typename: 'FirmMember', user: m.user, seatChannelIds: seatChannelIds(m.user) }));
        return { data: firm({ readers: { __typename: 'FirmReaderPage', readers } }) };
      },
    },
    {
      request: { query: FirmSeatsDocument, variables: { firmId: FIRM_IDS.acme, channelId: FIRM_IDS.oilChannel } },
      ...always,
      result: () => ({
        data: {
          firmSeats: {
            __typename: 'FirmSeats',
            subscription: {
              __typename: 'FirmSubscription',
              _id: FIRM_IDS.subOil,
              seats: OIL_SEATS,
              seatsUsed: state.holders.length,
              isLive: true,
            },
            holders: state.holders,
          },
        },
      }),
    },
    {
      request: { query: AssignFirmSeatDocument, variables: () => true },
      ...always,
      result: (v: { firmSubscriptionId: string; userId: string }) => {
        calls.assign(v);
        if (seatsFull) {
          const message = `All ${OIL_SEATS} seats are in use`;
          return { errors: [{ message, extensions: { code: 'BAD_USER_INPUT', fields: { seats: message } } }] };
        }
        const m = state.members.find((x) => x.user._id === v.userId);
        if (m) state.holders = [...state.holders, { __typename: 'FirmSeatHolder', user: m.user, assignedAt: new Date().toISOString() }];
        return { data: { assignFirmSeat: true } };
      },
    },
    {
      request: { query: ReleaseFirmSeatDocument, variables: () => true },
      ...always,
      result: (v: { firmSubscriptionId: string; userId: string }) => {
        calls.release(v);
        state.holders = state.holders.filter((h) => h.user._id !== v.userId);
        return { data: { releaseFirmSeat: true } };
      },
    },
    {
      request: { query: FirmReadershipDocument, variables: { firmId: FIRM_IDS.acme } },
      ...always,
      result: { data: { firmReadership: { __typename: 'FirmReadership', ...reading } } },
    },
    {
      request: { query: FirmInvitationsDocument, variables: { id: FIRM_IDS.acme } },
      ...always,
      result: () => ({ data: firm({ pendingInvitations: state.invitations }) }),
    },
    {
      request: { query: WithdrawFirmInvitationDocument, variables: () => true },
      ...always,
      result: (v: { firmId: string; email: string }) => {
        calls.withdraw(v);
        state.invitations = state.invitations.filter((i) => i.email !== v.email);
        return { data: { withdrawFirmInvitation: true } };
      },
    },
  ];
  return { state, calls, mocks };
}
