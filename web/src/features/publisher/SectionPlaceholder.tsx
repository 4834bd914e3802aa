import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';

/** A publisher screen that a later issue builds: an honest empty state, no sample data. */
export default function SectionPlaceholder({ title }: { title: string }) {
  return (
    <Page title={title}>
      <EmptyState icon="build" title="This section is being built" description={<p>{title} will be available here soon.</p>} />
    </Page>
  );
}
