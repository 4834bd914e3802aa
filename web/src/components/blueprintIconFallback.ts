//! Icons the app does not bundle: Blueprint's own loader, one chunk per icon size (see blueprint.tsx).
export { splitPathsBySizeLoader as getIconPaths } from '@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader';
