//! One archive month (/archives/{dateId}, dateId year-month): 'All articles published in
//! {Month YYYY}' (spec 3 §2). A dateId that is not a month shows 'Month not found' without a call.
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { Page } from '../../../components/Page';
import { ArticleFeed } from './ArticleFeed';
import { NotFoundState } from './BrowseLayout';
import { ARCHIVES_PATH, monthName, monthRange, parseDateId } from './paths';

export default function ArchivePage() {
  const { dateId } = useParams();
  const month = useMemo(() => parseDateId(dateId), [dateId]);
  const filter = useMemo(() => (month ? monthRange(month) : null), [month]);
  if (!month || !filter) return <NotFoundState title="Month not found" backTo={ARCHIVES_PATH} backText="All archives" />;
  const name = monthName(month);
  return (
    <Page
      title={`All articles published in ${name}`}
      breadcrumbs={<Breadcrumbs items={[{ text: 'Archives', to: ARCHIVES_PATH }, { text: name }]} />}
    >
      <div className="insights-browse-wide">
        <ArticleFeed key={dateId} title="Articles" filter={filter} emptyMessage={`No articles were published in ${name}.`} />
      </div>
    </Page>
  );
}
