import { describe, expect, it } from 'vitest';
import { parseEmbedUrl } from './embeds';

describe('parseEmbedUrl', () => {
  it.each([
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://www.vimeo.com/76979871/', 'https://player.vimeo.com/video/76979871'],
    ['http://vimeo.com/76979871?share=copy', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
    ['  https://player.vimeo.com/video/76979871?h=abc#t=10  ', 'https://player.vimeo.com/video/76979871'],
  ])('turns the Vimeo URL %s into its player', (input, src) => {
    expect(parseEmbedUrl(input)).toMatchObject({ provider: 'vimeo', src, height: 360 });
  });

  it.each([
    [
      'https://open.spotify.com/episode/7makk4oTQel546B0PZlDM5?si=abc',
      'https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5',
      152,
    ],
    ['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC', 152],
    ['https://open.spotify.com/show/5CfCWKI5pZ28U0uOzXkDHe', 'https://open.spotify.com/embed/show/5CfCWKI5pZ28U0uOzXkDHe', 352],
    ['https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M', 'https://open.spotify.com/embed/playlist/37i9dQZF1DXcBWIGoYBM5M', 352],
    ['https://open.spotify.com/album/4aawyAB9vmqN3uQ7FjRGTy', 'https://open.spotify.com/embed/album/4aawyAB9vmqN3uQ7FjRGTy', 352],
    ['https://open.spotify.com/intl-de/track/4uLU6hMCjMI75M1A2tKUQC', 'https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC', 152],
    [
      'https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5?utm_source=generator',
      'https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5',
      152,
    ],
  ])('turns the Spotify URL %s into its embed player', (input, src, height) => {
    expect(parseEmbedUrl(input)).toEqual({ provider: 'spotify', src, height, title: 'Spotify player' });
  });

  it.each([
    ['https://www.buzzsprout.com/1234/5678-the-episode', 'https://www.buzzsprout.com/1234/5678-the-episode'],
    ['https://buzzsprout.com/1234/5678', 'https://www.buzzsprout.com/1234/5678'],
    ['https://www.buzzsprout.com/1234/5678?client_source=small_player&iframe=true', 'https://www.buzzsprout.com/1234/5678'],
    ['https://www.buzzsprout.com/1234/episodes/5678-title', 'https://www.buzzsprout.com/1234/episodes/5678-title'],
  ])('keeps the path of the Buzzsprout URL %s and drops its query', (input, src) => {
    expect(parseEmbedUrl(input)).toMatchObject({ provider: 'buzzsprout', src, height: 200 });
  });

  it.each([
    '',
    'not a url',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.cookie)//https://vimeo.com/1',
    'data:text/html,<script>alert(1)</script>',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://player.vimeo.com.evil.com/video/123',
    'https://vimeo.com.evil.com/123',
    'https://evil.com/player.vimeo.com/video/123',
    'https://evilvimeo.com/123',
    'https://vimeo.com@evil.com/123',
    'https://user:pass@vimeo.com/123',
    'https://vimeo.com:8443/123',
    'ftp://vimeo.com/123',
    '//player.vimeo.com/video/123',
    'https://vimeo.com/channels/staffpicks',
    'https://player.vimeo.com/other/123',
    'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF',
    'https://open.spotify.com/track/',
    'https://open.spotify.com/track/abc/extra',
    'https://open.spotify.com.evil.com/track/4uLU6hMCjMI75M1A2tKUQC',
    'https://www.buzzsprout.com/',
    'https://www.buzzsprout.com/1234',
    'https://www.buzzsprout.com/podcast/5678',
    'https://www.buzzsprout.com/1234/%2e%2e/evil',
    'https://www.buzzsprout.com.evil.com/1234/5678',
  ])('refuses %s', (input) => {
    expect(parseEmbedUrl(input)).toBeNull();
  });
});
