import { describe, expect, it } from 'vitest';
import { PROFILE_COLOURS, profileColour } from '../../../renderer/src/lib/profile-colours.ts';

/*
 * Profiles' colours have to look apart to everyone: neighbours in the palette's order are
 * compared as they look with normal vision and, simulated, with deuteranopia and protanopia
 * (Machado, Oliveira and Fernandes 2009, full severity), as distances in OKLab, a space in
 * which a distance reads alike whatever the colours. And a mark must stand out from the page.
 */

type Rgb = readonly [number, number, number];
type Matrix = readonly [Rgb, Rgb, Rgb];

const linear = (hex: string): Rgb => {
  const channel = (at: number) => {
    const c = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return [channel(1), channel(3), channel(5)];
};
const times = (m: Matrix, [r, g, b]: Rgb): Rgb =>
  m.map(([x, y, z]) => Math.min(1, Math.max(0, x * r + y * g + z * b))) as unknown as Rgb;

const VISION: Record<string, Matrix> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
};

function oklab([r, g, b]: Rgb): Rgb {
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}
const apart = (a: string, b: string, vision: Matrix) => {
  const [p, q] = [a, b].map((hex) => oklab(times(vision, linear(hex)))) as [Rgb, Rgb];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

const luminance = (hex: string) => {
  const [r, g, b] = linear(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** The pages a mark is drawn on: app.css's --bg and --surface, per theme. */
const PAGES = { light: ['#fbfbfa', '#ffffff'], dark: ['#17181a', '#1f2023'] } as const;
/** Ten times OKLab's just-noticeable difference (about 0.02): apart at a glance. */
const AT_A_GLANCE = 0.1;

describe.each(['light', 'dark'] as const)('on the %s theme', (theme) => {
  const colours = PROFILE_COLOURS.map((colour) => colour[theme]);
  const neighbours = colours.map((colour, i) => [colour, colours[(i + 1) % colours.length]!]);

  it.each(Object.keys(VISION))('tells neighbours apart with %s', (vision) => {
    for (const [a, b] of neighbours)
      expect(apart(a!, b!, VISION[vision]!), `${a} beside ${b}`).toBeGreaterThanOrEqual(
        AT_A_GLANCE,
      );
  });

  it('draws every mark at 3:1 or more against the page', () => {
    for (const colour of colours)
      for (const page of PAGES[theme])
        expect(contrast(colour, page), `${colour} on ${page}`).toBeGreaterThanOrEqual(3);
  });
});

it('gives profiles their colours by their place in the list, round again after the last', () => {
  const profiles = Array.from({ length: PROFILE_COLOURS.length + 2 }, (_, i) => ({ id: `p${i}` }));
  const { light, dark } = PROFILE_COLOURS[0];
  expect(profileColour('p0', profiles)).toBe(`light-dark(${light}, ${dark})`);
  const colours = profiles.map((profile) => profileColour(profile.id, profiles));
  expect(new Set(colours.slice(0, PROFILE_COLOURS.length)).size).toBe(PROFILE_COLOURS.length);
  expect(colours[PROFILE_COLOURS.length]).toBe(colours[0]);
  // Its place, not its id: the same profile takes the colour of where it now is.
  expect(profileColour('p0', profiles.slice(1).concat(profiles[0]!))).toBe(
    colours[profiles.length - 1],
  );
});

it('draws a profile no longer in the list in the muted colour', () => {
  expect(profileColour('gone', [{ id: 'p0' }])).toBe('var(--muted)');
});
