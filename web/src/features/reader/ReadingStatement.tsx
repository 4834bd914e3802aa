//! The reader's reading statement (issue 40: clients account for the research they consume): for a
//! month, each article they opened, its channel, the first read, how many reads, and whether any
//! was of the full article or previews only; downloadable as CSV for their records.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Banner } from '../../components/Banner';
import { SelectControl } from '../../components/Controls';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { DownloadButton } from '../../components/DownloadButton';
import { LoadingBlock } from '../../components/LoadingScreen';
import { formatFullDateTime } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { ReadingStatementDocument, type ReadingStatementQuery } from './__generated__/ReadingStatement.generated';
import './reader.css';
import { readSourceLabel } from '../../lib/readSource';

type Line = ReadingStatementQuery['myReadingStatement'][number];

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The last `count` months, newest first, as 'yyyy-mm' with their names. */
export function recentMonths(now: Date, count = 12): { value: string; label: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const month = new Date(now.getFullYear(), now.getMonth() - i, 1);
    const value = `${month.getFullYear()}-${String(month.getMonth() + 1).padStart(2, '0')}`;
    return { value, label: `${MONTH_NAMES[month.getMonth()]} ${month.getFullYear()}` };
  });
}

const COLUMNS: DataColumn<Line>[] = [
  { key: 'title', title: 'Article', render: (l) => l.title },
  { key: 'channel', title: 'Channel', render: (l) => l.channelName ?? '' },
  { key: 'firstRead', title: 'First read', render: (l) => formatFullDateTime(l.firstRead) },
  { key: 'reads', title: 'Reads', render: (l) => l.reads },
  { key: 'full', title: 'Read', render: (l) => (l.full ? 'Full article' : 'Preview only') },
  { key: 'sources', title: 'Source', render: (l) => l.sources.map(readSourceLabel).join(', ') },
];

export function ReadingStatement({ now = new Date() }: { now?: Date }) {
  const months = recentMonths(now);
  const [month, setMonth] = useState(months[0].value);
  const { data, loading, error } = useQuery(ReadingStatementDocument, { variables: { month } });
  const label = months.find((m) => m.value === month)?.label ?? month;
  return (
    <div className="insights-reading-statement">
      <div className="insights-reader-toolbar">
        <SelectControl label="Month" options={months} value={month} onChange={setMonth} inline />
        <DownloadButton
          text="Download CSV"
          icon="document"
          url={`/export/reading-statement.csv?month=${month}`}
          fileName={`reading-statement-${month}.csv`}
          failureText="The statement could not be downloaded"
        />
      </div>
      {error && !data && (
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      )}
      {loading && !data ? (
        <LoadingBlock label="Loading your reading statement" />
      ) : (
        // On a phone the table scrolls inside its own box (focusable, so the keyboard scrolls it too),
        // not the page.
        <div className="insights-reading-statement-table" tabIndex={0} role="region" aria-label={`Reading statement, ${label}`}>
          <DataTable
            label={`What you read in ${label}`}
            columns={COLUMNS}
            rows={data?.myReadingStatement ?? []}
            rowKey={(l) => l.articleId}
            emptyText={`You read no articles in ${label}.`}
          />
        </div>
      )}
    </div>
  );
}

export const READING_STATEMENT_QUERY = gql`
  query ReadingStatement($month: String!) {
    myReadingStatement(month: $month) {
      articleId
      title
      channelName
      firstRead
      reads
      full
      sources
    }
  }
`;
