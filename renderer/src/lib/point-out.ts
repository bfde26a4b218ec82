/** Brings the row an address points at into view (in a long list it may be below the fold). */
export function pointOut(node: HTMLElement): void {
  node.scrollIntoView({ block: 'nearest' });
}
