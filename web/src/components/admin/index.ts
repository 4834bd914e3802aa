//! The shared admin pieces every publisher screen (topics, tags, desks, channels, templates,
//! promotional content, users) builds on. They live in components/ so that every feature may
//! import them (features do not import each other) and so that they can wrap Blueprint.
//!
//! - Lists: `AdminList` + `useListState` (server-side paging: turn the state into variables;
//!   client-side: `pageRows`, `sortRows`, `sortTree`).
//! - Forms: `useAdminForm` (behaviour) + `AdminForm` (frame) + the fields in `fields.tsx`.
//! - `UserPicker` / `UserPickerField`: a multi-select of staff users (desk contributors, channel admins).
//! - `SearchSelect` / `SearchSelectField`: one record chosen by searching for it (a channel's owner).
//! - `FileChooser`: one file chosen to be read in the browser (the bulk subscriber CSV).
//! - `AdminSettingsProvider`: page sizes, debounce and busy delay from the server's config.
export * from './AdminForm';
export * from './AdminList';
export * from './Breadcrumbs';
export * from './ConfirmDialog';
export * from './fields';
export * from './FileChooser';
export * from './listState';
export * from './SearchSelect';
export * from './settings';
export * from './useAdminForm';
export * from './UserPicker';
export { useRecordQuery } from './useRecordQuery';
