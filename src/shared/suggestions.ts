/** "Did you mean …?" for unknown names (config keys and variables, flow step kinds and keys): the closest known name, if close enough. */

export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = normalize(name);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalize(candidate));
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  // Allow about one typo per four letters, and at least two, so short names do not match anything.
  const allowed = Math.max(2, Math.floor(wanted.length / 4));
  return best !== undefined && best.distance <= allowed ? best.candidate : undefined;
}

/** `max_steps`, `max-steps` and `MaxSteps` all mean `maxSteps`. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (left[row - 1] === right[column - 1] ? 0 : 1);
      current[column] = Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}
