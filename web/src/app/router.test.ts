import { describe, expect, it } from 'vitest';

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
