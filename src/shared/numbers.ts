/** Shortens large numbers as the spec asks: k above 999, m above 999999. */
export function humanReadableNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs > 999999) return `${trim(n / 1000000)}m`;
  if (abs > 999) return `${trim(n / 1000)}k`;
  return String(n);
}

function trim(x: number): string {
  return (Math.floor(x * 10) / 10).toFixed(1).replace(/\.0$/, '');
}
