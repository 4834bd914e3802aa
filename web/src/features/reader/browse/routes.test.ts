import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';

const ID = '65c000000000000000000001';

/** The path pattern of the deepest route `path` lands on. */
function routeOf(path: string): string | undefined {
  return matchRoutes(routes, path)?.at(-1)?.route.path;
}

describe('reader routes', () => {
  it('sends a topic id to the browse category page', () => {
    expect(routeOf(`/browse/${ID}`)).toBe('browse/:categoryId');
  });

  it('keeps /browse/channel, /browse/article and /browse/marketing-article out of the category page', () => {
    expect(routeOf('/browse/channel')).not.toBe('browse/:categoryId');
    expect(routeOf(`/browse/channel/${ID}`)).not.toBe('browse/:categoryId');
    expect(routeOf(`/browse/article/${ID}`)).toBe('browse/article/:id/:campaignIdAndType?');
    expect(routeOf(`/browse/article/${ID}/${ID}_email`)).toBe('browse/article/:id/:campaignIdAndType?');
    expect(routeOf(`/browse/marketing-article/${ID}/${ID}_email`)).toBe('browse/marketing-article/:id/:campaignIdAndType?');
  });

  it('opens the topics directory at /topics-page', () => {
    expect(routeOf('/topics-page')).toBe('topics-page');
  });
});
