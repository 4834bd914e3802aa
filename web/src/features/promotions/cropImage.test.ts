import { describe, expect, it } from 'vitest';
import { centreCrop, outputSize } from './cropImage';

describe('the 2:1 crop of the social sharing image', () => {
  it('keeps the full height of a wide image and cuts its sides evenly', () => {
    expect(centreCrop(3000, 1000)).toEqual({ x: 500, y: 0, width: 2000, height: 1000 });
  });

  it('keeps the full width of a tall or square image and cuts top and bottom evenly', () => {
    expect(centreCrop(800, 800)).toEqual({ x: 0, y: 200, width: 800, height: 400 });
    expect(centreCrop(600, 1000)).toEqual({ x: 0, y: 350, width: 600, height: 300 });
  });

  it('leaves an image that is already 2:1 whole', () => {
    expect(centreCrop(1200, 600)).toEqual({ x: 0, y: 0, width: 1200, height: 600 });
  });

  it('scales a very wide crop down, keeping 2:1', () => {
    expect(outputSize({ x: 0, y: 0, width: 1200, height: 600 })).toEqual({ width: 1200, height: 600 });
    expect(outputSize({ x: 0, y: 0, width: 6000, height: 3000 })).toEqual({ width: 2400, height: 1200 });
  });
});
