/**
 * Reciprocal rank fusion (Cormack et al. 2009): each ranked list gives an item 1 / (k + rank),
 * and the sums order the fused list. It needs no score calibration between the vector and the
 * keyword ranking, which is why it suits a hybrid of the two. k = 60 as in the paper.
 */
export const RRF_K = 60;

export interface FusedItem {
  id: number;
  score: number;
  /** 1-based rank in each input list (absent when the item was not in it). */
  ranks: (number | undefined)[];
}

export function reciprocalRankFusion(lists: readonly (readonly number[])[], k = RRF_K): FusedItem[] {
  const items = new Map<number, FusedItem>();
  lists.forEach((list, listIndex) => {
    list.forEach((id, position) => {
      const item = items.get(id) ?? { id, score: 0, ranks: lists.map(() => undefined) };
      item.score += 1 / (k + position + 1);
      item.ranks[listIndex] = position + 1;
      items.set(id, item);
    });
  });
  return [...items.values()].sort((a, b) => b.score - a.score || a.id - b.id);
}
