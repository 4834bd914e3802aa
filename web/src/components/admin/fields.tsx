//! Form fields for admin forms: label, control and the field's error (shown once touched), all
//! driven by a `FieldBinding` from `useAdminForm` (`{...form.field('name')}`).
//! TextField / TextAreaField stop typing at `maxLength` and can show 'N characters remaining';
//! RadioField picks one of a few options;
//! TreeSelectField picks a node of a tree (the parent topic); ImageUploadField uploads an image
//! and keeps the file name the server returns.
import { Button, Checkbox, Classes, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, Spinner, TextArea } from '@blueprintjs/core';
import { useId, useState, type ReactNode } from 'react';
import type { FieldBinding } from './useAdminForm';
import { UploadedImage } from '../../lib/UploadedImage';

interface FieldFrameProps {
  id: string;
  label: string;
  error?: string;
  help?: ReactNode;
  children: ReactNode;
}

function FieldFrame({ id, label, error, help, children }: FieldFrameProps) {
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      helperText={
        error || help ? (
          <>
            {error && <span id={`${id}-error`}>{error}</span>}
            {help}
          </>
        ) : undefined
      }
    >
      {children}
    </FormGroup>
  );
}

const describedBy = (id: string, error?: string, counter?: boolean, help?: boolean) =>
  [error && `${id}-error`, counter && `${id}-counter`, help && `${id}-help`].filter(Boolean).join(' ') || undefined;

/** The helper text under a text field, read with it. */
function Help({ id, children }: { id: string; children: ReactNode }) {
  return (
    <span id={`${id}-help`} className="insights-admin-counter">
      {children}
    </span>
  );
}

/** What a text field shows under it: its counter, then its helper text. */
function textHelp(id: string, value: string, maxLength: number | undefined, counter: boolean | undefined, help: ReactNode) {
  if (!(counter && maxLength) && !help) return null;
  return (
    <>
      {counter && maxLength ? <Counter id={id} length={value.length} max={maxLength} /> : null}
      {help ? <Help id={id}>{help}</Help> : null}
    </>
  );
}

/** 'N characters remaining' under a text field. */
function Counter({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <span id={`${id}-counter`} className="insights-admin-counter">
      {max - length} characters remaining
    </span>
  );
}

export interface TextFieldProps extends FieldBinding<string> {
  label: string;
  /** Typing (and pasting) stops at this length. */
  maxLength?: number;
  counter?: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** A hint under the field, read with it ('Leave empty for unlimited'). */
  help?: ReactNode;
}

export function TextField({
  label,
  name,
  value,
  onChange,
  onBlur,
  error,
  maxLength,
  counter,
  disabled,
  placeholder,
  help,
}: TextFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} help={textHelp(id, value, maxLength, counter, help)}>
      <InputGroup
        id={id}
        name={name}
        value={value}
        maxLength={maxLength}
        disabled={disabled}
        placeholder={placeholder}
        intent={error ? 'danger' : 'none'}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, error, counter, !!help)}
        onValueChange={(v) => onChange(maxLength ? v.slice(0, maxLength) : v)}
        onBlur={onBlur}
      />
    </FieldFrame>
  );
}

export interface TextAreaFieldProps extends TextFieldProps {
  rows?: number;
}

export function TextAreaField({
  label,
  name,
  value,
  onChange,
  onBlur,
  error,
  maxLength,
  counter,
  disabled,
  placeholder,
  help,
  rows = 4,
}: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} help={textHelp(id, value, maxLength, counter, help)}>
      <TextArea
        id={id}
        name={name}
        value={value}
        rows={rows}
        fill
        maxLength={maxLength}
        disabled={disabled}
        placeholder={placeholder}
        intent={error ? 'danger' : 'none'}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, error, counter, !!help)}
        onChange={(e) => onChange(maxLength ? e.currentTarget.value.slice(0, maxLength) : e.currentTarget.value)}
        onBlur={onBlur}
      />
    </FieldFrame>
  );
}

export interface CheckboxFieldProps extends FieldBinding<boolean> {
  label: string;
  disabled?: boolean;
  help?: ReactNode;
}

export function CheckboxField({ label, name, value, onChange, onBlur, error, disabled, help }: CheckboxFieldProps) {
  const id = useId();
  return (
    <FormGroup intent={error ? 'danger' : 'none'} helperText={error ?? help}>
      <Checkbox
        id={id}
        name={name}
        label={label}
        checked={value}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.checked)}
        onBlur={onBlur}
      />
    </FormGroup>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectFieldProps extends FieldBinding<string | null> {
  label: string;
  options: readonly SelectOption[];
  /** The option meaning "none" (value null); omit to require a choice. */
  noneLabel?: string;
  disabled?: boolean;
}

const NONE = '';

export function SelectField({ label, name, value, onChange, onBlur, error, options, noneLabel, disabled }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error}>
      <HTMLSelect
        id={id}
        name={name}
        value={value ?? NONE}
        disabled={disabled}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => onChange(e.currentTarget.value === NONE ? null : e.currentTarget.value)}
        onBlur={onBlur}
      >
        {noneLabel !== undefined && <option value={NONE}>{noneLabel}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </HTMLSelect>
    </FieldFrame>
  );
}

export interface RadioOption<T extends string> {
  value: T;
  label: string;
  /** Shown but not choosable (the subscriber form's card option). */
  disabled?: boolean;
}

export interface RadioFieldProps<T extends string> extends FieldBinding<T | null> {
  label: string;
  options: readonly RadioOption<T>[];
  disabled?: boolean;
  /** Side by side (default) or one under the other. */
  inline?: boolean;
}

/** Radio buttons in a labelled radiogroup (a choice among a few); arrow keys move between them. */
export function RadioField<T extends string>({
  label,
  name,
  value,
  onChange,
  onBlur,
  error,
  options,
  disabled,
  inline = true,
}: RadioFieldProps<T>) {
  const id = useId();
  return (
    <FormGroup intent={error ? 'danger' : 'none'} helperText={error && <span id={`${id}-error`}>{error}</span>}>
      <RadioGroup
        label={label}
        name={`${name}-${id}`}
        selectedValue={value ?? undefined}
        disabled={disabled}
        inline={inline}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => onChange(e.currentTarget.value as T)}
        onBlur={onBlur}
      >
        {options.map((o) => (
          <Radio key={o.value} value={o.value} label={o.label} disabled={o.disabled} />
        ))}
      </RadioGroup>
    </FormGroup>
  );
}

export interface TreeSelectNode {
  value: string;
  label: string;
  children: readonly TreeSelectNode[];
  /** Shown but not selectable (e.g. a parent too deep). */
  disabled?: boolean;
}

/** The tree's nodes in order, indented by depth; `exclude` leaves out that node and its subtree. */
export function flattenTree(nodes: readonly TreeSelectNode[], exclude?: string | null, depth = 0): SelectOption[] {
  return nodes.flatMap((node) =>
    node.value === exclude
      ? []
      : [
          // Non-breaking spaces: a native select keeps them, so the nesting stays visible.
          { value: node.value, label: `${'\u00a0\u00a0\u00a0\u00a0'.repeat(depth)}${node.label}`, disabled: node.disabled },
          ...flattenTree(node.children, exclude, depth + 1),
        ],
  );
}

export interface TreeSelectFieldProps extends Omit<SelectFieldProps, 'options'> {
  nodes: readonly TreeSelectNode[];
  /** A node that must not be offered, with everything under it (the record itself). */
  exclude?: string | null;
}

/** A select over a tree: a native select keeps it keyboard- and screen-reader-friendly. */
export function TreeSelectField({ nodes, exclude, ...props }: TreeSelectFieldProps) {
  return <SelectField {...props} options={flattenTree(nodes, exclude)} />;
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif'];
export const IMAGE_ACCEPT = '.png,.jpg,.jpeg,.gif,image/png,image/jpeg,image/gif';
export const IMAGE_TYPE_MESSAGE = 'Choose a png, jpg, jpeg or gif image';

function isImage(file: File): boolean {
  return IMAGE_TYPES.includes(file.type) || /\.(png|jpe?g|gif)$/i.test(file.name);
}

export interface ImageUploadFieldProps extends FieldBinding<string | null> {
  label: string;
  /** Uploads the file and resolves to the name to store; rejects with a message to show. */
  upload: (file: File) => Promise<string>;
  /** The address of a stored image, for the preview. */
  previewUrl: (value: string) => string;
  disabled?: boolean;
  /** The file chooser's filter (default: png, jpg, jpeg, gif). */
  accept?: string;
  /** Checks a chosen file before the upload: a message refuses it (default: png, jpg, jpeg or gif). */
  checkFile?: (file: File) => string | null;
}

const checkImage = (file: File): string | null => (isImage(file) ? null : IMAGE_TYPE_MESSAGE);

export function ImageUploadField({
  label,
  name,
  value,
  onChange,
  onBlur,
  error,
  upload,
  previewUrl,
  disabled,
  accept = IMAGE_ACCEPT,
  checkFile = checkImage,
}: ImageUploadFieldProps) {
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const shownError = uploadError ?? error;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    const refusal = checkFile(file);
    if (refusal) {
      setUploadError(refusal);
      return;
    }
    setUploading(true);
    try {
      onChange(await upload(file));
    } catch (e) {
      setUploadError(e instanceof Error ? e.message : String(e));
    } finally {
      setUploading(false);
      onBlur();
    }
  };

  return (
    <FieldFrame id={id} label={label} error={shownError}>
      <div className="insights-admin-image">
        {value && <UploadedImage path={previewUrl(value)} alt={`${label} preview`} />}
        <div className="insights-admin-image-controls">
          {/* The native input is kept (keyboard, screen readers, drag and drop) but drawn as a button. */}
          <input
            id={id}
            name={name}
            type="file"
            accept={accept}
            className="insights-admin-file"
            disabled={disabled || uploading}
            aria-invalid={!!shownError}
            aria-describedby={describedBy(id, shownError)}
            onChange={(e) => {
              const input = e.currentTarget;
              void choose(input.files?.[0]).finally(() => {
                input.value = '';
              });
            }}
          />
          <label htmlFor={id} className={`${Classes.BUTTON} ${Classes.SMALL}`} aria-hidden>
            {value ? 'Replace image' : 'Choose image'}
          </label>
          {uploading && <Spinner size={16} aria-label="Uploading" />}
          {value && !uploading && (
            <Button
              text="Remove"
              size="small"
              variant="minimal"
              aria-label={`Remove ${label.toLowerCase()}`}
              disabled={disabled}
              onClick={() => onChange(null)}
            />
          )}
        </div>
      </div>
    </FieldFrame>
  );
}
