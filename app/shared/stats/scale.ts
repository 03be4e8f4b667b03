// The top of a count axis: the smallest of 1, 2, 5 (times a power of ten) at or above the largest
// value, so the axis' ticks (0, half, top) are round numbers.
export function niceTop(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}
