//! The behaviour every admin form shares (spec 1 §4 "Admin forms", §5, §8): new or edit mode by
//! whether a record loaded; errors shown once a field is touched; an unchanged edit returns to the
//! list without a call; the busy indicator 2 s after a submit starts; 'The {type} {name} has been
//! added/updated/deleted.' and back to the list on success; on failure the user stays with the
//! server's message in an alert and BAD_USER_INPUT `extensions.fields` on the fields.
//!
//!   const form = useAdminForm({ type: 'tag', listPath: '/publisher/tags', record: data?.findTagById, empty, toValues,
//!     validate, nameOf: (v) => v.name, save: (v, record) => mutate(...), remove: (record) => mutate(...) });
//!   <AdminForm form={form} ...><TextField label="Name" maxLength={50} {...form.field('name')} /></AdminForm>
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { fieldErrors, formatError } from '../../lib/errors';
import { showToast } from '../Toaster';
import { useAdminSettings } from './settings';

export type FormValues = Record<string, unknown>;
export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/** What a field component needs: spread `form.field('name')` into it. */
export interface FieldBinding<T> {
  name: string;
  value: T;
  onChange: (value: T) => void;
  onBlur: () => void;
  error?: string;
}

export interface AdminFormOptions<V extends FormValues, R> {
  /** The record's word in messages: 'topic' gives 'The topic Energy has been added.' */
  type: string;
  /** Where Cancel, an unchanged edit and every success go. */
  listPath: string;
  /** The loaded record (edit mode), or null/undefined (new mode). */
  record: R | null | undefined;
  /** Values of a new record. */
  empty: V;
  /** Values of an existing record. */
  toValues: (record: R) => V;
  /** Client-side rules: field name → message. */
  validate: (values: V) => FieldErrors<V>;
  /** The name in the success messages. */
  nameOf: (values: V) => string;
  /** Adds (record null) or updates; rejects with the server's error. */
  save: (values: V, record: R | null) => Promise<unknown>;
  /** Deletes (edit mode only); rejects with the server's error. */
  remove?: (record: R) => Promise<unknown>;
  /** Replaces the default success text 'The {type} {name} has been {verb}.' (channels: 'created'). */
  successMessage?: (verb: SuccessVerb, name: string) => string;
}

export type SuccessVerb = 'added' | 'updated' | 'deleted';

export type FormMode = 'new' | 'edit';

export interface AdminFormApi<V extends FormValues, R> {
  mode: FormMode;
  record: R | null;
  values: V;
  setValues: (patch: Partial<V>) => void;
  field: <K extends keyof V & string>(name: K) => FieldBinding<V[K]>;
  /** Visible errors (touched fields only). */
  errors: FieldErrors<V>;
  /** A save or delete is running: buttons are disabled. */
  submitting: boolean;
  /** The busy indicator (shown busyIndicatorDelayMs after the start). */
  busy: boolean;
  /** The server's message after a failure. */
  alert: string | null;
  /** Submits refused so far (by validation or the server): each moves focus to the first invalid field. */
  refusedSubmits: number;
  submit: (event?: FormEvent) => Promise<void>;
  cancel: () => void;
  canDelete: boolean;
  deleteOpen: boolean;
  askDelete: () => void;
  closeDelete: () => void;
  confirmDelete: () => Promise<void>;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The server names fields as in the input (`name`), sometimes under the argument (`item.name`). */
function serverFieldErrors(error: unknown, fields: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors(error))) {
    const name = key.replace(/^item\./, '');
    if (fields.includes(name)) result[name] = message;
  }
  return result;
}

export function useAdminForm<V extends FormValues, R>(options: AdminFormOptions<V, R>): AdminFormApi<V, R> {
  const { type, listPath, empty, toValues, validate, nameOf, save, remove, successMessage } = options;
  const record = options.record ?? null;
  const navigate = useNavigate();
  const { busyIndicatorDelayMs } = useAdminSettings();

  // The values the form started from; they change only when another record, or a changed one,
  // loads: a refetch that brings the same record back keeps what the user typed.
  const recordKey = record ? JSON.stringify(record) : '';
  const initial = useMemo(() => (record ? toValues(record) : empty), [recordKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const [values, setAll] = useState<V>(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [refusedSubmits, setRefusedSubmits] = useState(0);
  const [busy, setBusy] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const busyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    setAll(initial);
    setTouched(new Set());
    setServerErrors({});
  }, [initial]);
  useEffect(() => () => clearTimeout(busyTimer.current), []);

  const setValues = useCallback((patch: Partial<V>) => {
    setAll((prev) => ({ ...prev, ...patch }));
    setServerErrors((prev) => {
      const keys = Object.keys(patch).filter((k) => k in prev);
      if (keys.length === 0) return prev;
      const next = { ...prev };
      for (const k of keys) delete next[k];
      return next;
    });
  }, []);

  const clientErrors = validate(values);
  const errors: FieldErrors<V> = {};
  for (const key of Object.keys(values) as (keyof V & string)[]) {
    const message = serverErrors[key] ?? clientErrors[key];
    if (message && touched.has(key)) errors[key] = message;
  }

  const field = <K extends keyof V & string>(name: K): FieldBinding<V[K]> => ({
    name,
    value: values[name],
    onChange: (value: V[K]) => setValues({ [name]: value } as unknown as Partial<V>),
    onBlur: () => setTouched((prev) => (prev.has(name) ? prev : new Set(prev).add(name))),
    error: errors[name],
  });

  /** Runs a save or delete with the busy indicator; true when it succeeded. */
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setSubmitting(true);
    setAlert(null);
    busyTimer.current = setTimeout(() => setBusy(true), busyIndicatorDelayMs);
    try {
      await action();
      return true;
    } catch (error) {
      setAlert(formatError(error));
      const byField = serverFieldErrors(error, Object.keys(values));
      setServerErrors(byField);
      setTouched((prev) => new Set([...prev, ...Object.keys(byField)]));
      setRefusedSubmits((n) => n + 1);
      return false;
    } finally {
      clearTimeout(busyTimer.current);
      setBusy(false);
      setSubmitting(false);
    }
  };

  const succeed = (verb: SuccessVerb, name: string) => {
    const message = successMessage ? successMessage(verb, name) : `The ${type} ${name} has been ${verb}.`;
    void showToast({ message, intent: 'success' });
    navigate(listPath);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (submitting) return;
    setTouched(new Set(Object.keys(values)));
    if (Object.values(clientErrors).some(Boolean)) {
      setRefusedSubmits((n) => n + 1);
      return;
    }
    if (record && same(values, initial)) {
      navigate(listPath);
      return;
    }
    if (await run(() => save(values, record))) succeed(record ? 'updated' : 'added', nameOf(values));
  };

  const confirmDelete = async () => {
    if (!record || !remove || submitting) return;
    const ok = await run(() => remove(record));
    setDeleteOpen(false);
    if (ok) succeed('deleted', nameOf(initial));
  };

  return {
    mode: record ? 'edit' : 'new',
    record,
    values,
    setValues,
    field,
    errors,
    submitting,
    busy,
    alert,
    refusedSubmits,
    submit,
    cancel: () => navigate(listPath),
    canDelete: !!record && !!remove,
    deleteOpen,
    askDelete: () => setDeleteOpen(true),
    closeDelete: () => setDeleteOpen(false),
    confirmDelete,
  };
}
