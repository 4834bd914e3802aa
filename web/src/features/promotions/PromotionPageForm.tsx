//! Add and edit a promotion page (spec 2 'Promotion pages', §4, §5, §8): name, the page's html (the
//! rich-text editor; the server sanitises it like an article's), where registered interest goes
//! (a Microsoft Teams incoming-webhook URL or an email address), the summary and the 2:1 image
//! shown when the page is shared, and the success title and message a reader sees after
//! registering interest. Every field is required ('This field is required.'); the html's message
//! shows only after a save attempt. A page in use carries a warning, and the server refuses to
//! delete it while other promotional content uses it; opened from a promotional content's form
//! (?parentContentId=…), that content does not count.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  AdminForm,
  ImageUploadField,
  TextAreaField,
  TextField,
  useAdminForm,
  useRecordQuery,
  type FieldErrors,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { RichTextEditor } from '../../components/richtext/RichTextEditor';
import { formatError } from '../../lib/errors';
import { uploadedImageUrl, useImageUpload } from '../../lib/upload';
import {
  AddPromotionPageDocument,
  DeletePromotionPageDocument,
  EditPromotionPageDocument,
  PromotionPageByIdDocument,
  type PromotionPageFormFieldsFragment,
  type PromotionPageInput,
} from './__generated__/PromotionPageForm.generated';
import { cropToRatio } from './cropImage';
import { CONTENT_PATH, contentEditPath, MESSAGES, PAGE_LIMITS, PAGES_PATH } from './promotionText';
import './promotions.css';

type PageRecord = PromotionPageFormFieldsFragment;

export interface PageValues extends Record<string, unknown> {
  name: string;
  html: string;
  teamsChannel: string;
  pageSummary: string;
  /** The upload's name; null until an image is chosen. */
  socialSharingImageUrl: string | null;
  successTitle: string;
  successMessage: string;
}

const EMPTY: PageValues = {
  name: '',
  html: '',
  teamsChannel: '',
  pageSummary: '',
  socialSharingImageUrl: null,
  successTitle: '',
  successMessage: '',
};

const toValues = (p: PageRecord): PageValues => ({
  name: p.name,
  html: p.html,
  teamsChannel: p.teamsChannel,
  pageSummary: p.pageSummary,
  socialSharingImageUrl: p.socialSharingImageUrl || null,
  successTitle: p.successTitle,
  successMessage: p.successMessage,
});

const TEXT_FIELDS = ['name', 'html', 'teamsChannel', 'pageSummary', 'successTitle', 'successMessage'] as const;

export function validatePage(v: PageValues): FieldErrors<PageValues> {
  const errors: FieldErrors<PageValues> = {};
  for (const key of TEXT_FIELDS) if (!v[key].trim()) errors[key] = MESSAGES.pageRequired;
  if (!v.socialSharingImageUrl) errors.socialSharingImageUrl = MESSAGES.pageRequired;
  for (const key of ['name', 'pageSummary', 'successTitle', 'successMessage'] as const) {
    if (!errors[key] && v[key].length > PAGE_LIMITS[key]) errors[key] = MESSAGES.maximum(PAGE_LIMITS[key]);
  }
  return errors;
}

export function toPageInput(v: PageValues): PromotionPageInput {
  return {
    name: v.name.trim(),
    html: v.html,
    teamsChannel: v.teamsChannel.trim(),
    pageSummary: v.pageSummary.trim(),
    socialSharingImageUrl: v.socialSharingImageUrl ?? '',
    successTitle: v.successTitle.trim(),
    successMessage: v.successMessage.trim(),
  };
}

/** The route screen: edit/{_id} loads the page first; add starts empty. */
export default function PromotionPageFormScreen() {
  const { id } = useParams();
  const { data, loading, error } = useRecordQuery(PromotionPageByIdDocument, id);
  if (!id) return <PromotionPageForm record={null} />;
  if (data) return <PromotionPageForm record={data.findPromotionPageById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit promotion page">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

export function PromotionPageForm({ record }: { record: PageRecord | null }) {
  const [params] = useSearchParams();
  const parentContentId = params.get('parentContentId');
  const upload = useImageUpload();
  // The image is cropped to 2:1 before it leaves the browser.
  const uploadSocialImage = useCallback(async (file: File) => upload(await cropToRatio(file)), [upload]);
  const [addPage] = useMutation(AddPromotionPageDocument);
  const [editPage] = useMutation(EditPromotionPageDocument);
  const [deletePage] = useMutation(DeletePromotionPageDocument);

  const form = useAdminForm<PageValues, PageRecord>({
    type: 'promotion page',
    listPath: PAGES_PATH,
    record,
    empty: EMPTY,
    toValues,
    validate: validatePage,
    nameOf: (v) => v.name.trim(),
    save: (values, existing) => {
      const item = toPageInput(values);
      return existing
        ? editPage({ variables: { item: { ...item, _id: existing._id, version: existing.version } } })
        : addPage({ variables: { item } });
    },
    remove: (existing) =>
      deletePage({
        variables: { item: { _id: existing._id, parentContentId } },
        update: (cache) => {
          cache.evict({ id: cache.identify({ __typename: 'PromotionPage', _id: existing._id }) });
          cache.gc();
        },
      }),
  });

  const title = record ? 'Edit promotion page' : 'Add promotion page';
  const html = form.field('html');

  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[
        { text: 'Promotional Content', to: CONTENT_PATH },
        { text: 'Promotion pages', to: PAGES_PATH },
        { text: record ? record.name : title },
      ]}
      deleteTitle="Delete promotion page"
      deleteText={<p>Delete the promotion page {record?.name}?</p>}
    >
      {record?.inUse && (
        <Banner intent="warning" title={MESSAGES.inUse}>
          <UsedBy content={record.promotionalContent} />
        </Banner>
      )}
      <TextField label="Name" maxLength={PAGE_LIMITS.name} {...form.field('name')} />
      <div className="insights-promotions-field">
        {/* The editable area is named 'Page content'; this is the visible label. */}
        <span className="insights-promotions-label" aria-hidden>
          Page content
        </span>
        <RichTextEditor
          ariaLabel="Page content"
          initialHtml={record?.html ?? ''}
          resetKey={record ? `${record._id}:${record.version}` : 'new'}
          // No onBlur: the html's message waits for a save attempt (spec 2 'Promotion pages').
          onChange={(value) => html.onChange(value)}
        />
        {html.error && <span className="insights-promotions-error">{html.error}</span>}
      </div>
      <TextField
        label="Teams channel or email"
        placeholder="https://….webhook.office.com/… or team@example.com"
        {...form.field('teamsChannel')}
      />
      <p className="insights-promotions-hint">
        Where registered interest is sent: a Microsoft Teams incoming-webhook URL, or an email address.
      </p>
      <TextAreaField label="Page summary" maxLength={PAGE_LIMITS.pageSummary} counter rows={3} {...form.field('pageSummary')} />
      <ImageUploadField
        label="Social sharing image"
        upload={uploadSocialImage}
        previewUrl={uploadedImageUrl}
        {...form.field('socialSharingImageUrl')}
      />
      <p className="insights-promotions-hint">The image is cropped to 2:1 around its centre before it is uploaded.</p>
      <TextField label="Success title" maxLength={PAGE_LIMITS.successTitle} {...form.field('successTitle')} />
      <TextAreaField label="Success message" maxLength={PAGE_LIMITS.successMessage} counter rows={3} {...form.field('successMessage')} />
    </AdminForm>
  );
}

/** The promotional content that uses the page, each linked to its form. */
function UsedBy({ content }: { content: PageRecord['promotionalContent'] }) {
  if (content.length === 0) return null;
  return (
    <p>
      Used by{' '}
      {content.map((c, i) => (
        <span key={c._id}>
          {i > 0 && ', '}
          <Link to={contentEditPath(c._id)}>{c.name}</Link>
        </span>
      ))}
      .
    </p>
  );
}

export const PROMOTION_PAGE_FORM_OPERATIONS = gql`
  fragment PromotionPageFormFields on PromotionPage {
    _id
    name
    html
    teamsChannel
    pageSummary
    socialSharingImageUrl
    successTitle
    successMessage
    version
    inUse
    promotionalContent {
      _id
      name
    }
  }

  query PromotionPageById($id: ID!) {
    findPromotionPageById(id: $id) {
      ...PromotionPageFormFields
    }
  }

  mutation AddPromotionPage($item: PromotionPageInput!) {
    addPromotionPage(item: $item) {
      ...PromotionPageFormFields
    }
  }

  mutation EditPromotionPage($item: PromotionPageInput!) {
    editPromotionPage(item: $item) {
      ...PromotionPageFormFields
    }
  }

  mutation DeletePromotionPage($item: DeletePromotionPageInput!) {
    deletePromotionPage(item: $item)
  }
`;
