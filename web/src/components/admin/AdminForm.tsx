//! The shared admin form frame (spec 1 §2 add/edit forms): breadcrumb, heading, the server's alert,
//! the fields, Add or Update, Cancel, Delete (edit mode) with its confirmation dialog, and the busy
//! indicator. The behaviour lives in `useAdminForm`; fields come from `fields.tsx`. `AdminFormSection`
//! is the form without the page, for a screen that holds several (the trial policy and its terms).
import { Spinner, type IconName } from '@blueprintjs/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { Page } from '../Page';
import { Breadcrumbs, type Crumb } from './Breadcrumbs';
import { ConfirmDialog } from './ConfirmDialog';
import type { AdminFormApi, FormValues } from './useAdminForm';
import './admin.css';

export interface AdminFormProps<V extends FormValues, R> {
  form: AdminFormApi<V, R>;
  title: string;
  breadcrumbs: readonly Crumb[];
  /** Title and text of the delete confirmation (edit mode). */
  deleteTitle?: string;
  deleteText?: ReactNode;
  /** The delete button's and its confirmation's word and icon when the action is not a delete (channels: 'Archive'). */
  deleteLabel?: string;
  deleteIcon?: IconName;
  /** No Add/Update button (an archived record); the screen disables its fields itself. */
  readOnly?: boolean;
  /** Shown beside the form (a record's sidebar). */
  aside?: ReactNode;
  /** Shown under the form (a record's history). */
  after?: ReactNode;
  children: ReactNode;
}

export function AdminForm<V extends FormValues, R>({
  form,
  title,
  breadcrumbs,
  deleteTitle,
  deleteText,
  deleteLabel = 'Delete',
  deleteIcon,
  readOnly = false,
  aside,
  after,
  children,
}: AdminFormProps<V, R>) {
  const body = (
    <>
      <AdminFormSection
        form={form}
        label={title}
        readOnly={readOnly}
        buttons={
          form.canDelete && (
            <Button
              text={deleteLabel}
              intent="danger"
              variant="outlined"
              className="insights-admin-delete"
              onClick={form.askDelete}
              disabled={form.submitting}
            />
          )
        }
      >
        {children}
      </AdminFormSection>
      {form.canDelete && (
        <ConfirmDialog
          isOpen={form.deleteOpen}
          title={deleteTitle ?? deleteLabel}
          confirmText={deleteLabel}
          icon={deleteIcon}
          loading={form.submitting}
          onConfirm={() => void form.confirmDelete()}
          onCancel={form.closeDelete}
        >
          {deleteText}
        </ConfirmDialog>
      )}
      {after}
    </>
  );
  return (
    <Page title={title} breadcrumbs={<Breadcrumbs items={breadcrumbs} />}>
      {aside ? (
        <div className="insights-admin-form-layout">
          <div className="insights-admin-form-main">{body}</div>
          {aside}
        </div>
      ) : (
        body
      )}
    </Page>
  );
}

export interface AdminFormSectionProps<V extends FormValues, R> {
  form: AdminFormApi<V, R>;
  /** The form's accessible name. */
  label: string;
  /** The submit button's text: Add or Update (by the form's mode) unless given. */
  submitText?: string;
  /** Cancel returns to the list; a screen that is not opened from a list leaves it out. */
  cancel?: boolean;
  /** No submit button. */
  readOnly?: boolean;
  /** Shown after the buttons and the busy indicator (the delete button). */
  buttons?: ReactNode;
  children: ReactNode;
}

/**
 * The form itself, without the page around it: the server's alert, the fields, the buttons and the
 * busy indicator; a refused submit focuses the first field to correct. `AdminForm` is one of these
 * in a page; a screen with more than one form (a settings screen) puts several in its own page.
 */
export function AdminFormSection<V extends FormValues, R>({
  form,
  label,
  submitText,
  cancel = true,
  readOnly = false,
  buttons,
  children,
}: AdminFormSectionProps<V, R>) {
  const formRef = useRef<HTMLFormElement>(null);
  // A refused submit takes the keyboard to the first field to correct (its error is read with it).
  useEffect(() => {
    if (form.refusedSubmits > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form.refusedSubmits]);
  const invalid = Object.values(form.errors).filter(Boolean).length;

  return (
    <form ref={formRef} className="insights-admin-form" onSubmit={(e) => void form.submit(e)} noValidate aria-label={label}>
      <span className="insights-visually-hidden" role="status">
        {form.refusedSubmits > 0 && invalid > 0 && (invalid === 1 ? '1 field needs correcting' : `${invalid} fields need correcting`)}
      </span>
      {form.alert && (
        <Banner intent="danger" role="alert">
          {form.alert.split('\n').map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </Banner>
      )}
      {children}
      <div className="insights-admin-form-buttons">
        {!readOnly && (
          <Button
            type="submit"
            intent="primary"
            text={submitText ?? (form.mode === 'edit' ? 'Update' : 'Add')}
            disabled={form.submitting}
          />
        )}
        {cancel && <Button text="Cancel" onClick={form.cancel} disabled={form.submitting} />}
        {form.busy && (
          <span role="status" aria-live="polite">
            <Spinner size={16} aria-label="Saving" />
          </span>
        )}
        {buttons}
      </div>
    </form>
  );
}
