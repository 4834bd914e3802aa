//! A firm's reading over the last twelve months (issue 39, `firmReadership`), on the staff firm page
//! and on 'My firm': per month and channel (readers, full reads, previews, articles read in full),
//! and per reader and article (the server lists at most 500 reads). 'Download CSV' saves the same
//! period's reading, one row per reader, article and month, from the server's export.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../components/Banner';
import { DataTable } from '../../components/DataTable';
import { DownloadButton } from '../../components/DownloadButton';
import { LoadingBlock } from '../../components/LoadingScreen';
import { formatDateTime, formatUtcMonth } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { FirmReadershipDocument, type FirmReadershipQuery } from './__generated__/FirmUsage.generated';
import { firmReadershipCsvPath } from './firmText';
import { TableScroll } from './TableScroll';
import './firms.css';

type ChannelMonth = FirmReadershipQuery['firmReadership']['channels'][number];
type Read = FirmReadershipQuery['firmReadership']['reads'][number];

/** Articles in no channel are read too: their row says so. */
export const NO_CHANNEL = 'No channel';

const MONTH_COLUMNS = [
  { key: 'month', title: 'Month', render: (r: ChannelMonth) => formatUtcMonth(r.month) },
  { key: 'channel', title: 'Channel', render: (r: ChannelMonth) => r.channelName ?? NO_CHANNEL },
  { key: 'readers', title: 'Readers', render: (r: ChannelMonth) => r.readers },
  { key: 'fullReads', title: 'Full reads', render: (r: ChannelMonth) => r.fullReads },
  { key: 'previews', title: 'Previews', render: (r: ChannelMonth) => r.previews },
  { key: 'articlesRead', title: 'Articles read', render: (r: ChannelMonth) => r.articlesRead },
];

const READ_COLUMNS = [
  { key: 'reader', title: 'Reader', render: (r: Read) => r.user.name },
  { key: 'article', title: 'Article', render: (r: Read) => <Link to={`/browse/article/${r.articleId}`}>{r.title}</Link> },
  { key: 'channel', title: 'Channel', render: (r: Read) => r.channelName ?? NO_CHANNEL },
  { key: 'fullReads', title: 'Full reads', render: (r: Read) => r.fullReads },
  { key: 'previews', title: 'Previews', render: (r: Read) => r.previews },
  { key: 'lastRead', title: 'Last read', render: (r: Read) => formatDateTime(r.lastRead) },
];

export function FirmUsage({ firmId, headingLevel = 3 }: { firmId: string; headingLevel?: 2 | 3 }) {
  const monthsId = useId();
  const readsId = useId();
  const Heading = `h${headingLevel}` as const;
  const { data, loading, error } = useQuery(FirmReadershipDocument, { variables: { firmId }, fetchPolicy: 'cache-and-network' });
  const usage = data?.firmReadership;
  if (error && !usage) {
    return (
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    );
  }
  if (loading && !usage) return <LoadingBlock label="Loading the reading" />;
  if (!usage) return null;
  return (
    <>
      <div className="insights-firm-actions">
        <p className="insights-firm-note">The last twelve months.</p>
        <DownloadButton
          text="Download CSV"
          url={firmReadershipCsvPath(firmId)}
          fileName="readership.csv"
          failureText="The download failed"
        />
      </div>
      <section className="insights-firm-section" aria-labelledby={monthsId}>
        <Heading id={monthsId}>Reading per channel and month</Heading>
        <TableScroll label="Reading per channel and month">
          <DataTable
            label="Reading per channel and month"
            columns={MONTH_COLUMNS}
            rows={usage.channels}
            rowKey={(r) => `${r.month}-${r.channelId ?? 'none'}`}
            emptyText="Nobody has read anything yet"
          />
        </TableScroll>
      </section>
      <section className="insights-firm-section" aria-labelledby={readsId}>
        <Heading id={readsId}>Reading per reader</Heading>
        <TableScroll label="Reading per reader">
          <DataTable
            label="Reading per reader"
            columns={READ_COLUMNS}
            rows={usage.reads}
            rowKey={(r) => `${r.user._id}-${r.articleId}`}
            emptyText="Nobody has read anything yet"
          />
        </TableScroll>
      </section>
    </>
  );
}

export const FIRM_USAGE_QUERY = gql`
  query FirmReadership($firmId: ID!) {
    firmReadership(firmId: $firmId) {
      channels {
        channelId
        channelName
        month
        readers
        fullReads
        previews
        articlesRead
      }
      reads {
        user {
          _id
          name
          email
        }
        articleId
        title
        channelName
        fullReads
        previews
        lastRead
      }
    }
  }
`;
