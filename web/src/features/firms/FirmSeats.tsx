//! One firm subscription's seats (issue 39), on the staff firm page and on 'My firm': '{used} of
//! {seats} seats used', who holds them (with 'Take back'), and 'Give a seat' to a member of the
//! firm found by name or email. The server holds the limit: a full subscription answers 'All N
//! seats are in use', shown under the picker. Staff who only read firms (Contributors) see the
//! holders without the actions.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useState } from 'react';
import { Banner } from '../../components/Banner';
import { DataTable } from '../../components/DataTable';
import { LoadingBlock } from '../../components/LoadingScreen';
import { showToast } from '../../components/Toaster';
import { formatDate } from '../../lib/dates';
import { fieldErrors, formatError } from '../../lib/errors';
import {
  AssignFirmSeatDocument,
  FirmSeatCandidatesDocument,
  FirmSeatsDocument,
  ReleaseFirmSeatDocument,
  type FirmSeatCandidatesQuery,
  type FirmSeatsQuery,
} from './__generated__/FirmSeats.generated';
import { actionColumn } from './actionColumn';
import { seatsUsedText } from './firmText';
import { PersonPicker } from './PersonPicker';
import { TableScroll } from './TableScroll';
import './firms.css';

type Holder = FirmSeatsQuery['firmSeats']['holders'][number];
type Candidate = FirmSeatCandidatesQuery['findFirmById']['readers']['readers'][number];

/** Members offered by 'Give a seat' at once (one of the page sizes the API takes). */
export const SEAT_CANDIDATES = 30;

/** The message to show for a refused seat change: the server's field message when it has one. */
export function seatError(error: unknown): string {
  const fields = fieldErrors(error);
  return fields.seats ?? fields.userId ?? formatError(error);
}

export interface FirmSeatsPanelProps {
  firmId: string;
  channelId: string;
  channelName: string;
  /** Give and take seats (staff who change firms, the firm's administrator). */
  canChange: boolean;
  /** After a seat is given or taken back (the screen reads its counts again). */
  onChanged: () => void;
  headingLevel?: 3 | 4;
}

export function FirmSeatsPanel({ firmId, channelId, channelName, canChange, onChanged, headingLevel = 3 }: FirmSeatsPanelProps) {
  const headingId = useId();
  const Heading = `h${headingLevel}` as const;
  const { data, previousData, loading, error, refetch } = useQuery(FirmSeatsDocument, {
    variables: { firmId, channelId },
    fetchPolicy: 'cache-and-network',
  });
  const shown = (data ?? previousData)?.firmSeats;
  const [release] = useMutation(ReleaseFirmSeatDocument);
  const [releasing, setReleasing] = useState<string | null>(null);

  const changed = async () => {
    await refetch().catch(() => undefined);
    onChanged();
  };

  const takeBack = async (holder: Holder) => {
    setReleasing(holder.user._id);
    try {
      await release({ variables: { firmSubscriptionId: shown?.subscription._id ?? '', userId: holder.user._id } });
      void showToast({ message: `${holder.user.name} no longer has a seat of ${channelName}.`, intent: 'success' });
      await changed();
    } catch (e) {
      void showToast({ message: seatError(e), intent: 'danger' });
    } finally {
      setReleasing(null);
    }
  };

  const columns = [
    { key: 'name', title: 'Reader', render: (h: Holder) => h.user.name },
    { key: 'email', title: 'Email', render: (h: Holder) => h.user.email },
    { key: 'since', title: 'Since', render: (h: Holder) => formatDate(new Date(h.assignedAt)) },
    ...(canChange
      ? [
          actionColumn<Holder>({
            text: 'Take back',
            label: (h) => `Take back the seat of ${h.user.name}`,
            busy: (h) => releasing === h.user._id,
            onClick: (h) => void takeBack(h),
          }),
        ]
      : []),
  ];

  return (
    <section className="insights-firm-seats" aria-labelledby={headingId}>
      <Heading id={headingId}>Seats of {channelName}</Heading>
      {error && !shown && (
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      )}
      {loading && !shown && <LoadingBlock label="Loading the seats" />}
      {shown && (
        <>
          <p className="insights-firm-note">{seatsUsedText(shown.subscription.seatsUsed, shown.subscription.seats)}</p>
          <TableScroll label={`Seat holders of ${channelName}`} focusable={!canChange}>
            <DataTable
              label={`Seat holders of ${channelName}`}
              columns={columns}
              rows={shown.holders}
              rowKey={(h) => h.user._id}
              emptyText="Nobody holds a seat yet"
            />
          </TableScroll>
          {canChange && shown.subscription.isLive && (
            <GiveSeat
              firmId={firmId}
              channelId={channelId}
              channelName={channelName}
              firmSubscriptionId={shown.subscription._id}
              onGiven={changed}
            />
          )}
          {canChange && !shown.subscription.isLive && (
            <p className="insights-firm-note">This subscription has ended: its seats cannot be given.</p>
          )}
        </>
      )}
    </section>
  );
}

interface GiveSeatProps {
  firmId: string;
  channelId: string;
  channelName: string;
  firmSubscriptionId: string;
  onGiven: () => Promise<void>;
}

/** 'Give a seat': a member of the firm without a seat of this channel, found by name or email. */
function GiveSeat({ firmId, channelId, channelName, firmSubscriptionId, onGiven }: GiveSeatProps) {
  const [search, setSearch] = useState<string | null>(null);
  const { data, previousData, loading, error } = useQuery(FirmSeatCandidatesDocument, {
    variables: { firmId, params: { page: 1, pageSize: SEAT_CANDIDATES, search: search || null } },
    skip: search === null,
    fetchPolicy: 'network-only',
  });
  const members = ((data ?? previousData)?.findFirmById.readers.readers ?? []).filter((m) => !m.seatChannelIds.includes(channelId));
  const [assign] = useMutation(AssignFirmSeatDocument);

  const give = async (chosen: Candidate) => {
    try {
      await assign({ variables: { firmSubscriptionId, userId: chosen.user._id } });
      void showToast({ message: `${chosen.user.name} now has a seat of ${channelName}.`, intent: 'success' });
      await onGiven();
      return null;
    } catch (e) {
      return seatError(e);
    }
  };

  return (
    <PersonPicker<Candidate>
      label={`Give a seat of ${channelName}`}
      name="seatHolder"
      items={members}
      personOf={(m) => m.user}
      onSearch={setSearch}
      loading={loading}
      failed={!!error}
      listLabel="Members without a seat"
      placeholder="Search the firm's readers..."
      noMatchesText="No member without a seat matches"
      buttonText="Give seat"
      chooseText="Choose a member of the firm"
      onPick={give}
    />
  );
}

export const FIRM_SEATS_OPERATIONS = gql`
  query FirmSeats($firmId: ID!, $channelId: ID!) {
    firmSeats(firmId: $firmId, channelId: $channelId) {
      subscription {
        _id
        seats
        seatsUsed
        isLive
      }
      holders {
        user {
          _id
          name
          email
        }
        assignedAt
      }
    }
  }

  query FirmSeatCandidates($firmId: ID!, $params: FirmReaderParams) {
    findFirmById(id: $firmId) {
      _id
      readers(params: $params) {
        readers {
          user {
            _id
            name
            email
          }
          seatChannelIds
        }
      }
    }
  }

  mutation AssignFirmSeat($firmSubscriptionId: ID!, $userId: ID!) {
    assignFirmSeat(firmSubscriptionId: $firmSubscriptionId, userId: $userId)
  }

  mutation ReleaseFirmSeat($firmSubscriptionId: ID!, $userId: ID!) {
    releaseFirmSeat(firmSubscriptionId: $firmSubscriptionId, userId: $userId)
  }
`;
