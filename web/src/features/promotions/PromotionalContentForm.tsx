//! Add and edit promotional content (spec 2 'Promotional content', §4, §5): name (at most 50),
//! description (at most 250), article and sidebar images (uploaded like other images), where a
//! click goes — an external link or a promotion page, one of them required by the choice, none
//! chosen blocks the save ('Please choose a destination link') — and an optional expiry date
//! (dd/MM/yyyy, not in the past: 'Invalid Expiry Date'; the server keeps 23:59:59 of that day).
//! An existing one can be deleted after a confirmation.
import { gql, type Reference } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useHref, useParams } from 'react-router';
import {
  AdminForm,
  ImageUploadField,
  RadioField,
  SearchSelectField,
  TextAreaField,
  TextField,
  useAdminForm,
  useRecordQuery,
  type AdminFormApi,
  type FieldErrors,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { AnchorButton } from '../../components/Button';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { useConfig } from '../../lib/config';
import { isoToDayText } from '../../lib/days';
import { formatError } from '../../lib/errors';
import { uploadedImageUrl, useImageUpload } from '../../lib/upload';
import {
  AddPromotionalContentDocument,
  DeletePromotionalContentDocument,
  EditPromotionalContentDocument,
  PromotionalContentByIdDocument,
  PromotionPageChoicesDocument,
  type PromotionalContentFormFieldsFragment,
  type PromotionalContentInput,
} from './__generated__/PromotionalContentForm.generated';
import { CONTENT_LIMITS, CONTENT_PATH, expiryError, expiryToIsoDay, MESSAGES, pageEditPath, PAGES_PATH } from './promotionText';
import './promotions.css';

type ContentRecord = PromotionalContentFormFieldsFragment;
type Destination = PromotionalContentInput['destination'];
/** A promotion page as the picker shows it. */
export interface PageChoice {
  _id: string;
  name: string;
}

export interface ContentValues extends Record<string, unknown> {
  name: string;
  description: string;
  articleImage: string | null;
  sidebarImage: string | null;
  destination: Destination;
  link: string;
  /** Named like the input field, so the server's field error lands on the picker. */
  promotionPageId: PageChoice | null;
  /** dd/MM/yyyy, or '' for none. */
  expiryDate: string;
}

const EMPTY: ContentValues = {
  name: '',
  description: '',
  articleImage: null,
  sidebarImage: null,
  destination: 'NotSelected',
  link: '',
  promotionPageId: null,
  expiryDate: '',
};

const toValues = (c: ContentRecord): ContentValues => ({
  name: c.name,
  description: c.description,
  articleImage: c.articleImage ?? null,
  sidebarImage: c.sidebarImage ?? null,
  destination: c.destination,
  link: c.link ?? '',
  promotionPageId: c.promotionPage ? { _id: c.promotionPage._id, name: c.promotionPage.name } : null,
  expiryDate: isoToDayText(c.expiryDate),
});

/** The destination radios; 'NotSelected' is none of them checked. */
const DESTINATIONS: readonly { value: Exclude<Destination, 'NotSelected'>; label: string }[] = [
  { value: 'ExternalLink', label: 'External link' },
  { value: 'CustomLandingPage', label: 'Custom landing page' },
];

export function validateContent(v: ContentValues, now: Date = new Date()): FieldErrors<ContentValues> {
  const errors: FieldErrors<ContentValues> = {};
  if (!v.name.trim()) errors.name = MESSAGES.required;
  else if (v.name.length > CONTENT_LIMITS.name) errors.name = MESSAGES.maximum(CONTENT_LIMITS.name);
  if (v.description.length > CONTENT_LIMITS.description) errors.description = MESSAGES.maximum(CONTENT_LIMITS.description);
  // The choice decides which of link and page is required (spec 2: switching swaps them).
  if (v.destination === 'NotSelected') errors.destination = MESSAGES.destination;
  if (v.destination === 'ExternalLink' && !v.link.trim()) errors.link = MESSAGES.required;
  if (v.destination === 'CustomLandingPage' && !v.promotionPageId) errors.promotionPageId = MESSAGES.required;
  const expiry = expiryError(v.expiryDate, now);
  if (expiry) errors.expiryDate = expiry;
  return errors;
}

/** The input the API takes: only the chosen destination's field is sent (one destination at most). */
export function toContentInput(v: ContentValues): PromotionalContentInput {
  return {
    name: v.name.trim(),
    description: v.description.trim() || null,
    articleImage: v.articleImage,
    sidebarImage: v.sidebarImage,
    destination: v.destination,
    link: v.destination === 'ExternalLink' ? v.link.trim() : null,
    promotionPageId: v.destination === 'CustomLandingPage' ? (v.promotionPageId?._id ?? null) : null,
    expiryDate: expiryToIsoDay(v.expiryDate),
  };
}

/** The route screen: edit/{_id} loads the content first; add starts empty. */
export default function PromotionalContentFormScreen() {
  const { id } = useParams();
  const { data, loading, error } = useRecordQuery(PromotionalContentByIdDocument, id);
  if (!id) return <PromotionalContentForm record={null} />;
  if (data) return <PromotionalContentForm record={data.findPromotionalContentById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit promotional content">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

export function PromotionalContentForm({ record }: { record: ContentRecord | null }) {
  const upload = useImageUpload();
  // 'Topic' replaces 'category' everywhere when premium channels are on (spec 1 §1).
  const topicWords = useConfig().features.premiumChannels ? (['topic', 'topics'] as const) : (['category', 'categories'] as const);
  const [addContent] = useMutation(AddPromotionalContentDocument);
  const [editContent] = useMutation(EditPromotionalContentDocument);
  const [deleteContent] = useMutation(DeletePromotionalContentDocument);

  const form = useAdminForm<ContentValues, ContentRecord>({
    type: 'promotional content',
    listPath: CONTENT_PATH,
    record,
    empty: EMPTY,
    toValues,
    validate: validateContent,
    nameOf: (v) => v.name.trim(),
    // The list reloads when the form returns to it (cache-and-network).
    save: (values, existing) => {
      const item = toContentInput(values);
      return existing
        ? editContent({ variables: { item: { ...item, _id: existing._id, version: existing.version } } })
        : addContent({ variables: { item } });
    },
    remove: (existing) =>
      deleteContent({
        variables: { id: existing._id },
        update: (cache) => {
          cache.evict({ id: cache.identify({ __typename: 'PromotionalContent', _id: existing._id }) });
          // The lookups of the topic form and the editor no longer offer it.
          cache.modify({
            fields: {
              promotionalContentOptions: (refs: readonly Reference[], { readField }) =>
                refs.filter((ref) => readField('_id', ref) !== existing._id),
            },
          });
          cache.gc();
        },
      }),
  });

  const title = record ? 'Edit promotional content' : 'Add promotional content';
  const { destination } = form.values;
  const destinationField = form.field('destination');
  const usage = record ? usageText(record, topicWords) : '';

  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[{ text: 'Promotional Content', to: CONTENT_PATH }, { text: record ? record.name : title }]}
      deleteTitle="Delete promotional content"
      deleteText={
        <p>
          Delete the promotional content {record?.name}? {usage}
        </p>
      }
    >
      <TextField label="Name" maxLength={CONTENT_LIMITS.name} {...form.field('name')} />
      <TextAreaField label="Description" maxLength={CONTENT_LIMITS.description} counter {...form.field('description')} />
      <ImageUploadField label="Article image" upload={upload} previewUrl={uploadedImageUrl} {...form.field('articleImage')} />
      <ImageUploadField label="Sidebar image" upload={upload} previewUrl={uploadedImageUrl} {...form.field('sidebarImage')} />
      <RadioField<Exclude<Destination, 'NotSelected'>>
        label="Destination link"
        options={DESTINATIONS}
        name={destinationField.name}
        error={destinationField.error}
        onBlur={destinationField.onBlur}
        value={destination === 'NotSelected' ? null : destination}
        onChange={(value) => form.setValues({ destination: value ?? 'NotSelected' })}
      />
      {destination === 'ExternalLink' && <TextField label="Link" placeholder="https://… or /browse/…" {...form.field('link')} />}
      {destination === 'CustomLandingPage' && <PromotionPageField form={form} contentId={record?._id ?? null} />}
      <TextField label="Expiry date" placeholder="dd/MM/yyyy" {...form.field('expiryDate')} />
    </AdminForm>
  );
}

/** What deleting takes away: 'It is used by 2 articles and 1 topic, which will lose it.' */
function usageText(record: ContentRecord, [one, many]: readonly [string, string]): string {
  const parts = [
    record.articlesCount > 0 && `${record.articlesCount} article${record.articlesCount === 1 ? '' : 's'}`,
    record.categoriesCount > 0 && `${record.categoriesCount} ${record.categoriesCount === 1 ? one : many}`,
  ].filter(Boolean);
  return parts.length > 0 ? `It is used by ${parts.join(' and ')}, which will lose it.` : '';
}

/**
 * The promotion page, searched by name among `allPages`, with links to open the chosen page or
 * create one. They open in a new tab so that what was typed here stays; the page, once saved
 * there, is found by the search here.
 */
function PromotionPageField({ form, contentId }: { form: AdminFormApi<ContentValues, ContentRecord>; contentId: string | null }) {
  const [search, setSearch] = useState<string | null>(null);
  const { data, loading, error } = useQuery(PromotionPageChoicesDocument, {
    variables: { searchQuery: search || null },
    skip: search === null,
    fetchPolicy: 'network-only',
  });
  const page = form.values.promotionPageId;
  // The page form, opened from here, may delete a page only this content uses (parentContentId).
  const openHref = useHref(page ? `${pageEditPath(page._id)}${contentId ? `?parentContentId=${contentId}` : ''}` : PAGES_PATH);
  const createHref = useHref(`${PAGES_PATH}/add`);

  return (
    <div className="insights-promotions-page-field">
      <SearchSelectField<PageChoice>
        label="Promotion page"
        placeholder="Search promotion pages..."
        listLabel="Matching promotion pages"
        items={data?.allPages.pages ?? []}
        itemKey={(p) => p._id}
        itemLabel={(p) => p.name}
        loading={loading}
        failed={!!error}
        onSearch={setSearch}
        {...form.field('promotionPageId')}
      />
      <span className="insights-promotions-page-links">
        {page && <AnchorButton href={openHref} target="_blank" rel="noopener" text={`Open ${page.name}`} icon="share" size="small" />}
        <AnchorButton href={createHref} target="_blank" rel="noopener" text="Create a promotion page" icon="add" size="small" />
      </span>
    </div>
  );
}

export const PROMOTIONAL_CONTENT_FORM_OPERATIONS = gql`
  fragment PromotionalContentFormFields on PromotionalContent {
    _id
    name
    description
    articleImage
    sidebarImage
    destination
    link
    promotionPageId
    promotionPage {
      _id
      name
    }
    expiryDate
    expired
    version
    categoriesCount
    articlesCount
  }

  query PromotionalContentById($id: ID!) {
    findPromotionalContentById(id: $id) {
      ...PromotionalContentFormFields
    }
  }

  query PromotionPageChoices($searchQuery: String) {
    allPages(params: { page: 1, pageSize: 30, searchQuery: $searchQuery }) {
      pages {
        _id
        name
      }
    }
  }

  mutation AddPromotionalContent($item: PromotionalContentInput!) {
    addPromotionalContent(item: $item) {
      ...PromotionalContentFormFields
    }
  }

  mutation EditPromotionalContent($item: PromotionalContentInput!) {
    editPromotionalContent(item: $item) {
      ...PromotionalContentFormFields
    }
  }

  mutation DeletePromotionalContent($id: ID!) {
    deletePromotionalContent(id: $id)
  }
`;
