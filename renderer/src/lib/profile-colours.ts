/*
 * The colour that marks a profile wherever the window tells profiles apart (the fleet's
 * headings, a rolling update's agents). Hues from a hash of the id came out close to each
 * other (teal beside green), and closer still to a colour-blind eye: these are Okabe and Ito's
 * palette, chosen to stay apart with red-green colour blindness, in an order whose neighbours
 * (and the last and the first, where the order starts again) differ without and with
 * deuteranopia or protanopia, blue and orange first for the common case of two profiles. On
 * the light theme the paler ones are darkened, hue kept, to a contrast of 3:1 with the page,
 * as a mark needs; on the dark theme all are Okabe and Ito's own.
 */
export const PROFILE_COLOURS = [
  { name: 'blue', light: '#0072B2', dark: '#0072B2' },
  { name: 'orange', light: '#C68100', dark: '#E69F00' },
  { name: 'sky blue', light: '#3899CD', dark: '#56B4E9' },
  { name: 'bluish green', light: '#009E73', dark: '#009E73' },
  { name: 'vermillion', light: '#D55E00', dark: '#D55E00' },
  { name: 'reddish purple', light: '#C976A4', dark: '#CC79A7' },
  { name: 'yellow', light: '#9F9200', dark: '#F0E442' },
] as const;

/**
 * A profile's colour, for both themes: by its place in the profile list (Settings' order), so
 * profiles listed one after the other never look alike. One that is not in the list (removed
 * while its agents are still shown) is drawn in the muted text colour.
 */
export function profileColour(profileId: string, profiles: readonly { id: string }[]): string {
  const at = profiles.findIndex((profile) => profile.id === profileId);
  if (at < 0) return 'var(--muted)';
  // In range: a place in the list, wrapped round the palette's length.
  const { light, dark } = PROFILE_COLOURS[at % PROFILE_COLOURS.length]!;
  return `light-dark(${light}, ${dark})`;
}
