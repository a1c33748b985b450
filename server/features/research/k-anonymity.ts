/**
 * k-anonymity of the participants file by local suppression, planned on the counts of the
 * quasi-identifier combinations (one GROUP BY in SQL) before a row is written.
 *
 * A quasi-identifier is every released column that describes the person or something an
 * outsider can know about them: birth band, postal region, client type, insurer, the
 * campaign they came through, whether a sponsor pays, and whether (and after how many days,
 * in bands) the coaching was closed. The other columns are the study's measurements.
 *
 * The quasi-identifiers are blanked in a fixed order, one more at each level (the ones
 * researchers need least and that single people out most go first): 1: postal region;
 * 2: + campaign; 3: + insurer; 4: + closure; 5: + birth band; 6: + paid by sponsor;
 * 7: + client type. Combinations shared by at least k participants keep level 0. The rest
 * are grouped by what is left of them at level 1; groups of at least k stay there, and so on.
 * Every level blanks a different set of columns, so rows of different levels never look
 * alike: every combination of values in the file (a blank counting as a value) is one group
 * of one level, and each has at least k rows — and so has every combination of fewer of
 * these columns, which only merges groups. Should the fully blanked rest be smaller than k,
 * the smallest group of another level is blanked with it. Only with fewer than k
 * participants in all is k not reached (then every quasi-identifier of every row is blank).
 */

export const QUASI_IDENTIFIERS = [
  'birthBand',
  'postalRegion',
  'clientType',
  'insurer',
  'campaign',
  'paidBySponsor',
  'closure',
] as const;
export type QuasiIdentifier = (typeof QUASI_IDENTIFIERS)[number];
export type QuasiValues = Record<QuasiIdentifier, string>;

/** The order in which the quasi-identifiers are blanked. */
export const SUPPRESSION_ORDER: readonly QuasiIdentifier[] = [
  'postalRegion',
  'campaign',
  'insurer',
  'closure',
  'birthBand',
  'paidBySponsor',
  'clientType',
];

/** Which quasi-identifiers each level blanks. */
export const BLANKED_AT: readonly (readonly QuasiIdentifier[])[] = SUPPRESSION_ORDER.reduce<
  QuasiIdentifier[][]
>((levels, q) => [...levels, [...levels[levels.length - 1]!, q]], [[]]);
const TOP = BLANKED_AT.length - 1;

/** Cells of the file a blanked quasi-identifier empties (closure: sessions_closed and its day band). */
export const CELLS_OF: Record<QuasiIdentifier, number> = {
  birthBand: 1,
  postalRegion: 1,
  clientType: 1,
  insurer: 1,
  campaign: 1,
  paidBySponsor: 1,
  closure: 2,
};
export const cellsBlankedAt = (level: number) =>
  (BLANKED_AT[level] ?? []).reduce((sum, q) => sum + CELLS_OF[q], 0);

export interface QuasiCount extends QuasiValues {
  count: number;
}

export interface SuppressionPlan {
  /** Level of each combination (keyed by `keyOf`). */
  levels: Map<string, number>;
  /** Blanked cells in the whole file. */
  suppressedCells: number;
  /** Every combination in the file is shared by at least k rows. */
  achieved: boolean;
  /** Participants at each level (index = level). */
  rowsPerLevel: number[];
}

export const keyOf = (v: QuasiValues): string => QUASI_IDENTIFIERS.map((q) => v[q]).join('\u0000');

/** The values as written at a level: blanked ones become ''. */
export function publishedAt(v: QuasiValues, level: number): QuasiValues {
  const out = { ...v };
  for (const q of BLANKED_AT[level] ?? []) out[q] = '';
  return out;
}

interface Group {
  level: number;
  count: number;
  members: QuasiCount[];
}

export function planSuppression(combinations: readonly QuasiCount[], k: number): SuppressionPlan {
  const groups: Group[] = [];
  let rest = combinations.filter((c) => c.count > 0);
  for (let level = 0; level <= TOP && rest.length > 0; level++) {
    const byKey = new Map<string, Group>();
    for (const c of rest) {
      const key = keyOf(publishedAt(c, level));
      const group = byKey.get(key) ?? { level, count: 0, members: [] };
      group.count += c.count;
      group.members.push(c);
      byKey.set(key, group);
    }
    rest = [];
    for (const group of byKey.values()) {
      if (group.count >= k || level === TOP) groups.push(group);
      else rest.push(...group.members);
    }
  }
  const top = groups.find((g) => g.level === TOP);
  if (top && top.count < k) {
    // Blank the smallest other group too (it has at least k rows, so the rest then has).
    const smallest = groups
      .filter((g) => g !== top)
      .sort((a, b) => a.count - b.count || b.level - a.level)[0];
    if (smallest) {
      top.members.push(...smallest.members);
      top.count += smallest.count;
      groups.splice(groups.indexOf(smallest), 1);
    }
  }
  const levels = new Map<string, number>();
  const rowsPerLevel = BLANKED_AT.map(() => 0);
  let suppressedCells = 0;
  for (const group of groups) {
    for (const c of group.members) levels.set(keyOf(c), group.level);
    rowsPerLevel[group.level]! += group.count;
    suppressedCells += group.count * cellsBlankedAt(group.level);
  }
  return {
    levels,
    suppressedCells,
    achieved: groups.every((g) => g.count >= k),
    rowsPerLevel,
  };
}
