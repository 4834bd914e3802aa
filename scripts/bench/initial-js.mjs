// The JavaScript a first visit to a route loads, from a production build made with `--manifest`:
//   node scripts/bench/initial-js.mjs DIST ROUTE_MODULE [SUMMARY_FILE]
// e.g. DIST=web/dist, ROUTE_MODULE=src/features/reader/ForYou.tsx. Initial: index.html's entry
// script and its static imports (the modulepreload links, checked against the manifest); lazy
// chunks (dynamic imports) are not. Then the chunks the route's lazy module adds on navigation (its
// chunk and its static imports not already loaded). Sizes raw and gzip (zlib level 6, what servers
// commonly use). SUMMARY_FILE gets `initial_gzip_kb`, `route_gzip_kb` and file counts as key=value.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const [dist, routeModule, summaryFile] = process.argv.slice(2);
if (!dist || !routeModule) {
  console.error('usage: initial-js.mjs DIST ROUTE_MODULE [SUMMARY_FILE]');
  process.exit(2);
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const attr = (tag, name) => tag.match(new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`))?.[1];
const tags = (name) => [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((m) => m[0]);
// Asset URLs carry the base path (/insights/); files sit under dist/ without it.
const toFile = (url) => url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/insights\//, '').replace(/^\//, '');

const entryScripts = tags('script')
  .filter((t) => attr(t, 'type') === 'module' && attr(t, 'src'))
  .map((t) => toFile(attr(t, 'src')));
const preloads = tags('link')
  .filter((t) => attr(t, 'rel') === 'modulepreload' && attr(t, 'href'))
  .map((t) => toFile(attr(t, 'href')));
const styles = tags('link')
  .filter((t) => attr(t, 'rel') === 'stylesheet' && attr(t, 'href'))
  .map((t) => toFile(attr(t, 'href')));
const fromHtml = [...new Set([...entryScripts, ...preloads])];

const manifestPath = [join(dist, '.vite', 'manifest.json'), join(dist, 'manifest.json')].find(existsSync);
const manifest = manifestPath ? JSON.parse(readFileSync(manifestPath, 'utf8')) : null;

/** A chunk's file and, recursively, the files of its static imports. */
function staticClosure(key, into = new Set()) {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, into);
  return into;
}
function cssOf(keys) {
  const css = new Set();
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const file of manifest[key].css ?? []) css.add(file);
    for (const imported of manifest[key].imports ?? []) walk(imported);
  };
  keys.forEach(walk);
  return [...css];
}

let initial = fromHtml;
if (manifest) {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry).map(([key]) => key);
  const fromManifest = new Set();
  for (const key of entries) staticClosure(key, fromManifest);
  const missing = [...fromManifest].filter((f) => !fromHtml.includes(f));
  const extra = fromHtml.filter((f) => !fromManifest.has(f));
  if (missing.length || extra.length) {
    console.log(`  note: index.html and the manifest differ (only in manifest: ${missing.join(' ') || '-'}; only in html: ${extra.join(' ') || '-'}); counting both`);
    initial = [...new Set([...fromHtml, ...fromManifest])];
  }
}

const sizes = (file) => {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
};
const kb = (n) => (n / 1024).toFixed(1);
function table(title, files) {
  const rows = files.map(sizes).sort((a, b) => b.gzip - a.gzip);
  const raw = rows.reduce((s, r) => s + r.raw, 0);
  const gzip = rows.reduce((s, r) => s + r.gzip, 0);
  console.log(`${title}: ${rows.length} file(s), ${kb(raw)} kB raw, ${kb(gzip)} kB gzip`);
  for (const r of rows) console.log(`    ${r.file.padEnd(56)} ${kb(r.raw).padStart(8)} kB ${kb(r.gzip).padStart(7)} kB gzip`);
  return { raw, gzip, count: rows.length };
}

const summary = {};
const init = table('Initial JS of any page, /for-you included (entry + static imports)', initial);
summary.initial_files = init.count;
summary.initial_gzip_kb = kb(init.gzip);
if (styles.length) {
  const css = table('Initial CSS (index.html stylesheets)', styles);
  summary.initial_css_gzip_kb = kb(css.gzip);
}

if (!manifest) {
  console.log('Route chunks: no manifest (build with --manifest) to find them');
} else {
  const key = Object.keys(manifest).find((k) => k === routeModule || k.endsWith('/' + routeModule));
  if (!key) {
    console.log(`Route chunks: ${routeModule} is not a chunk of its own in the manifest (bundled with another, or not lazy)`);
  } else if (initial.includes(manifest[key].file)) {
    console.log(`Route chunks: ${routeModule} is in the initial JS (not lazy)`);
  } else {
    const onNavigation = [...staticClosure(key)].filter((f) => !initial.includes(f));
    const route = table(`Lazy chunks ${routeModule} adds on navigation (its chunk + static imports not already loaded)`, onNavigation);
    summary.route_files = route.count;
    summary.route_gzip_kb = kb(route.gzip);
    const css = cssOf([key]).filter((f) => !styles.includes(f));
    if (css.length) summary.route_css_gzip_kb = kb(table(`  its CSS`, css).gzip);
  }
}
if (summaryFile) writeFileSync(summaryFile, Object.entries(summary).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
