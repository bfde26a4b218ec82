/**
 * A view's clock: its `now` moves on every `every()` milliseconds while the component that made
 * it is shown, so that "3 minutes ago" does not stay as it was drawn. Made while a component is.
 */
export function ticking(every: () => number): { readonly now: number } {
  let now = $state(Date.now());
  $effect(() => {
    now = Date.now();
    const timer = setInterval(() => (now = Date.now()), every());
    return () => clearInterval(timer);
  });
  return {
    get now() {
      return now;
    },
  };
}
