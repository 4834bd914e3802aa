import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CHECKED_ROUTES, type RouteIds } from '../../e2e/routes';
import { routes } from './router';

// Every screen module's source (tests aside), as text.
const sources = import.meta.glob<string>(['/src/**/*.tsx', '!/src/**/*.test.tsx'], { query: '?raw', import: 'default', eager: true });

describe('the route map', () => {
  it("routes to real screens only: no 'being built' placeholder is left to route to", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const placeholders = Object.entries(sources)
      .filter(([, text]) => /This section is being built/i.test(text))
      .map(([file]) => file);
    expect(placeholders).toEqual([]);
  });
});

/** Every path pattern of the route map, from the root ('/browse/article/:id/:campaignIdAndType?'). */
function routePatterns(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    const path = route.path === undefined ? parent : `${parent.replace(/\/$/, '')}/${route.path}`;
    const own = route.index || (route.path !== undefined && !route.children) ? [path || '/'] : [];
    return [...own, ...routePatterns(route.children ?? [], path)];
  });
}

const SAMPLE_IDS: RouteIds = {
  premiumArticle: '65c000000000000000000001',
  freeArticle: '65c000000000000000000002',
  draftArticle: '65c000000000000000000003',
  template: '65c000000000000000000004',
  promotionalContent: '65c000000000000000000005',
  promotionPage: '65c000000000000000000006',
  tag: '65c000000000000000000007',
  desk: '65c000000000000000000008',
  user: '65c000000000000000000009',
  contributor: '65c00000000000000000000a',
  premiumChannel: '65c00000000000000000000b',
  subscriber: '65c00000000000000000000c',
  topic: '65c00000000000000000000d',
  firm: '65c00000000000000000000e',
  firmChannel: '65c00000000000000000000f',
};

/** The full pattern of the deepest route `url` lands on. */
function patternOf(url: string): string | undefined {
  const matches = matchRoutes(routes, `/${url.split('?')[0]}`) ?? [];
  const path = matches
    .map((m) => m.route.path)
    .filter((p) => p !== undefined)
    .join('/');
  return `/${path.replace(/\/+/g, '/').replace(/^\//, '')}`;
}

describe('the accessibility check (e2e/a11y.spec.ts)', () => {
  it('checks every route of the router: a new route needs its line in e2e/routes.ts', () => {
    const routed = [...new Set(routePatterns(routes))].sort();
    expect(routed.length).toBeGreaterThan(70);
    expect(CHECKED_ROUTES.map((r) => r.pattern).sort()).toEqual(routed);
  });

  it("opens for each route a page of that route, not of a neighbour's", () => {
    const landed = CHECKED_ROUTES.map((r) => [r.pattern, patternOf(r.url(SAMPLE_IDS))]);
    expect(landed).toEqual(CHECKED_ROUTES.map((r) => [r.pattern, r.pattern]));
  });
});
