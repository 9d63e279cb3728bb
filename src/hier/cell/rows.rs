//! The table's rows: one Dijkstra per portal over the moves [`number`](super::number) lists,
//! for the cells whose routes may not fit 16 bits. The others (at default costs, nearly all)
//! search their rows together, one vector lane per row ([`super::lanes`]): 200 edits'
//! updates 346.9 M to 295.9 M instructions, the median edit 1.062 M to 0.789 M, the
//! one-thread build's rows at 1024 2.24 G to 1.22 G (commands and the variants tried there).
//! The figures below are of the rows searched one by one.
//!
//! With the cell's moves cheap (as at the default costs) the open set is Dial's bucket queue,
//! one bucket per cost modulo a power of two above the largest move cost, so no comparisons;
//! else a binary heap (half of a cell's derivation was heap operations: perf, `long --edits
//! 3000`). The buckets are lists threaded through one array of entries, their heads on the
//! stack and the costs 32-bit (a cell's [`Plan`] checks once that no route in it can reach
//! [`UNREACHED`], so no move checks for overflow): the search's state stays in registers
//! rather than in a vector of vectors behind the scratch. Build at 1024, one thread (callgrind
//! on `'*Abstraction*build*'`, `long --size 1024 --pairs 1 --edits 0`): the rows took
//! 3.38 G instructions with a vector per bucket and 64-bit costs, 2.94 G with the lists and
//! 32-bit costs but entries pushed onto a vector, 2.24 G with entries written by place (the
//! build 7.32 G to 6.25 G); in 200 edits' updates, landmarks current (`'*Abstraction*update*'`,
//! `long --size 1024 --pairs 1 --edits 200 --refresh-landmarks`), 171.8 M to 115.9 M.
//!
//! Tried and dropped before (callgrind on `'*Abstraction*update*'`, `long --size 1024 --pairs
//! 1 --edits 200 --refresh-landmarks`, the rows 171.8 M then): a bitmask of full buckets, so
//! a pop skips empty costs in a word (218.1 M: rows step over few empty costs); 32-bit costs
//! checked for overflow on every move (178.6 M). The costs in a fixed array of 2^16 read by a
//! node's low 16 bits, so no move checks a bound (cells above 2^16 nodes to the heap): rows
//! 118.0 M to 117.2 M, update 362.8 M to 362.3 M, for 256 KB per scratch; the median edit's
//! cell (edit 19: 238 nodes, 1448 moves, 20 portals, 19 rows searched again) settles all its
//! nodes in every row, about 28 K instructions a row, so the rows cost what the moves number.
//!
//! Also dropped (session 12, same command, update 355.8 M, median edit 1.090 M): pruning a
//! row by the rows already known (a known portal settled at `d` caps every entry `to` at
//! `d + table[r][to]` and is not expanded; sound, tested): 363.5 M, median 1.118 M, stopping
//! when every entry not popped is capped at or below the bucket 407.8 M, median 1.325 M. A
//! portal is one node of a wide border: routes around it cost about the same, so the search
//! settles nearly as much and pays for the caps. An update's rows split over two threads
//! (`rayon::join`, from 8 rows searched): edit p50 at 2048 236, 237 and 240 us against 235,
//! 233 and 232 (`HIER_ENGINE=hpa long --refresh-landmarks --weight 1`, quiet, interleaved):
//! waking a worker costs what the second half of the rows saves.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Chunk, UNREACHED};
use crate::error::{Error, Result};

/// The most buckets a Dial search uses: a cell whose moves cost more than this less one
/// (unusual costs) is searched with a binary heap instead. A bucket's place is the cost's
/// low byte, so this is 256.
const MAX_BUCKETS: usize = 256;

/// The end of a bucket's list.
const NIL: u32 = u32::MAX;

/// A cell's moves as [`number`](super::number) lists them: node `i`'s are
/// `edges[first_edge[i]..first_edge[i + 1]]`, each `(target, cost)`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Moves<'a> {
    pub(super) first_edge: &'a [u32],
    pub(super) edges: &'a [(u32, u32)],
}

/// How a cell's rows are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    /// Dial's buckets, a cost's bucket `cost & mask` (`mask` below [`MAX_BUCKETS`]), and
    /// 32-bit costs.
    Dial { mask: u32 },
    /// A binary heap and 64-bit costs.
    Heap,
}

impl Plan {
    /// The plan for a cell of `nodes` numbered nodes whose dearest move costs `max_cost`:
    /// Dial's when the moves are cheap and no route through every node (plus a move) reaches
    /// [`UNREACHED`], so 32-bit costs need no check.
    pub(super) fn for_cell(nodes: usize, max_cost: u32) -> Self {
        let bound = (nodes as u64 + 1) * u64::from(max_cost);
        if (max_cost as usize) < MAX_BUCKETS && bound < u64::from(UNREACHED) {
            Self::Dial {
                mask: (max_cost + 1).next_power_of_two() - 1,
            }
        } else {
            Self::Heap
        }
    }
}

/// Reusable buffers of the row searches.
#[derive(Debug, Default, Clone)]
pub(super) struct RowScratch {
    /// Dial's costs so far, per numbered node ([`UNREACHED`]: none).
    dist: Vec<u32>,
    /// Dial's entries, `(node, the entry below it in its bucket)`.
    entries: Vec<(u32, u32)>,
    /// The heap's costs so far, per numbered node (`u64::MAX`: none).
    wide: Vec<u64>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl RowScratch {
    /// Row `from` of the table of cell `chunk` (`row[to]`: the cheapest route inside the
    /// cell from portal `from` to portal `to`; the portals are the first `row.len()` nodes),
    /// searched as `plan` says. Entries the search does not reach are left as they are.
    ///
    /// # Errors
    /// [`Error::GraphTooLarge`] when a route to a portal costs [`UNREACHED`] or more.
    pub(super) fn fill(
        &mut self,
        moves: Moves<'_>,
        plan: Plan,
        chunk: Chunk,
        from: usize,
        row: &mut [u32],
    ) -> Result<()> {
        match plan {
            Plan::Dial { mask } => {
                self.dial(moves, mask, from, row);
                Ok(())
            }
            Plan::Heap => self.heap(moves, chunk, from, row),
        }
    }

    /// [`RowScratch::fill`] over Dial's buckets.
    #[inline(never)]
    fn dial(&mut self, moves: Moves<'_>, mask: u32, from: usize, row: &mut [u32]) {
        let n = row.len();
        self.dist.clear();
        self.dist.resize(moves.first_edge.len() - 1, UNREACHED);
        // A row pushes at most once per move, and once the source: entries are written by
        // place, with no capacity to check (their old values are never read).
        if self.entries.len() <= moves.edges.len() {
            self.entries.resize(moves.edges.len() + 1, (0, NIL));
        }
        let (dist, entries) = (&mut self.dist[..], &mut self.entries[..]);
        let mut heads = [NIL; MAX_BUCKETS];
        dist[from] = 0;
        entries[0] = (from as u32, NIL);
        let mut used = 1;
        heads[0] = 0;
        // `at`: the cost of the bucket popped from; entries in buckets cost `at` to
        // `at + mask`, so one bucket per cost.
        let (mut at, mut pending, mut settled) = (0u32, 1usize, 0usize);
        while pending > 0 {
            // `mask` is below 256: the low byte is the bucket.
            let bucket = &mut heads[(at & mask) as u8 as usize];
            let head = *bucket;
            if head == NIL {
                at += 1;
                continue;
            }
            let (node, below) = entries[head as usize];
            *bucket = below;
            pending -= 1;
            let node = node as usize;
            if at > dist[node] {
                continue;
            }
            if node < n {
                row[node] = at;
                settled += 1;
                if settled == n {
                    break;
                }
            }
            let out = moves.first_edge[node] as usize..moves.first_edge[node + 1] as usize;
            for &(target, cost) in &moves.edges[out] {
                let next = at + cost;
                let known = &mut dist[target as usize];
                if next < *known {
                    *known = next;
                    let bucket = &mut heads[(next & mask) as u8 as usize];
                    entries[used] = (target, *bucket);
                    *bucket = used as u32;
                    used += 1;
                    pending += 1;
                }
            }
        }
    }

    /// [`RowScratch::fill`] over a binary heap, for costs too large for Dial's buckets.
    #[inline(never)]
    fn heap(&mut self, moves: Moves<'_>, chunk: Chunk, from: usize, row: &mut [u32]) -> Result<()> {
        let n = row.len();
        self.wide.clear();
        self.wide.resize(moves.first_edge.len() - 1, u64::MAX);
        let (dist, heap) = (&mut self.wide[..], &mut self.heap);
        heap.clear();
        dist[from] = 0;
        heap.push(Reverse((0, from as u32)));
        let mut settled = 0;
        while let Some(Reverse((g, node))) = heap.pop() {
            let node = node as usize;
            if g > dist[node] {
                continue;
            }
            if node < n {
                row[node] = u32::try_from(g)
                    .ok()
                    .filter(|&cost| cost != UNREACHED)
                    .ok_or_else(|| {
                        Error::GraphTooLarge(format!(
                            "a route inside the chunk column {chunk:?} costs {g}, more than the \
                             hierarchy's 32-bit table holds"
                        ))
                    })?;
                settled += 1;
                if settled == n {
                    break;
                }
            }
            let out = moves.first_edge[node] as usize..moves.first_edge[node + 1] as usize;
            for &(target, cost) in &moves.edges[out] {
                let next = g + u64::from(cost);
                let known = &mut dist[target as usize];
                if next < *known {
                    *known = next;
                    heap.push(Reverse((next, target)));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::lanes::{self, LaneScratch};
    use super::{Moves, Plan, RowScratch, UNREACHED};
    use crate::testing::xorshift;

    /// On random move lists (dead ends, one-way moves, unreachable portals, costs up to the
    /// Dial limit), Dial's rows equal the heap's and a plain Bellman-Ford's, and so do the
    /// lane searches' rows (up to 120 rows, every row or a random subset, so several groups
    /// of 8 to 32 lanes, full and partial).
    #[test]
    fn dial_rows_equal_heap_rows_and_bellman_ford() {
        let mut random = xorshift(0x9e37_79b9_7f4a_7c15_u64);
        let mut next = move |below: u64| random() % below;
        let mut scratch = RowScratch::default();
        let mut lane_scratch = LaneScratch::default();
        for round in 0..300 {
            let nodes = 1 + next(if round % 3 == 2 { 120 } else { 60 }) as usize;
            let portals = 1 + next(nodes as u64) as usize;
            let max_move = if round % 2 == 0 { 20 } else { 255 };
            let mut first_edge = vec![0u32];
            let mut edges = Vec::new();
            for _ in 0..nodes {
                for _ in 0..next(6) {
                    edges.push((next(nodes as u64) as u32, 1 + next(max_move) as u32));
                }
                first_edge.push(edges.len() as u32);
            }
            let moves = Moves {
                first_edge: &first_edge,
                edges: &edges,
            };
            let max_cost = edges.iter().map(|&(_, cost)| cost).max().unwrap_or(0);
            let plan = Plan::for_cell(nodes, max_cost);
            assert!(matches!(plan, Plan::Dial { .. }), "round {round}");
            assert!(lanes::fit(moves), "round {round}");
            let mut table = vec![UNREACHED; portals * portals];
            for from in 0..portals {
                let mut want = vec![u64::MAX; nodes];
                want[from] = 0;
                for _ in 0..nodes {
                    for (source, bounds) in first_edge.windows(2).enumerate() {
                        for &(target, cost) in &edges[bounds[0] as usize..bounds[1] as usize] {
                            let via = want[source].saturating_add(u64::from(cost));
                            want[target as usize] = want[target as usize].min(via);
                        }
                    }
                }
                let want: Vec<u32> = want[..portals]
                    .iter()
                    .map(|&cost| u32::try_from(cost).unwrap_or(UNREACHED))
                    .collect();
                for plan in [plan, Plan::Heap] {
                    let mut row = vec![UNREACHED; portals];
                    scratch
                        .fill(moves, plan, [0, 0], from, &mut row)
                        .expect("small costs");
                    assert_eq!(row, want, "round {round}, from {from}, {plan:?}");
                }
                table[from * portals..(from + 1) * portals].copy_from_slice(&want);
            }
            let sources: Vec<usize> = if round % 2 == 0 {
                (0..portals).collect()
            } else {
                (0..portals).filter(|_| next(3) != 0).collect()
            };
            // Any columns: the sweeps' order changes the work, not the fixed point.
            let columns: Vec<u8> = (0..nodes).map(|_| next(256) as u8).collect();
            // Rows not searched hold a mark that must stay.
            let mut got = vec![7; portals * portals];
            lane_scratch.rows(moves, &columns, &sources, portals, &mut got);
            for from in 0..portals {
                let row = &got[from * portals..(from + 1) * portals];
                if sources.contains(&from) {
                    let want = &table[from * portals..(from + 1) * portals];
                    assert_eq!(row, want, "round {round}, from {from}, lanes");
                } else {
                    assert!(
                        row.iter().all(|&cost| cost == 7),
                        "round {round}, from {from}"
                    );
                }
            }
        }
    }

    /// A cell whose routes may pass `u16::MAX` does not fit the lanes (which would
    /// saturate there: checked) and keeps the scalar rows, which reach the far end.
    #[test]
    fn dear_cells_keep_the_scalar_rows() {
        // A chain of 300 moves of 255 each, both ways: 76 500 end to end.
        let nodes = 301;
        let mut first_edge = vec![0u32];
        let mut edges = Vec::new();
        for node in 0..nodes as u32 {
            if node + 1 < nodes as u32 {
                edges.push((node + 1, 255));
            }
            if node > 0 {
                edges.push((node - 1, 255));
            }
            first_edge.push(edges.len() as u32);
        }
        let moves = Moves {
            first_edge: &first_edge,
            edges: &edges,
        };
        assert!(!lanes::fit(moves));
        let plan = Plan::for_cell(nodes, 255);
        let mut scalar = vec![UNREACHED; nodes];
        RowScratch::default()
            .fill(moves, plan, [0, 0], 0, &mut scalar)
            .expect("fits 32 bits");
        assert_eq!(scalar[nodes - 1], 300 * 255);
        // Forced through the lanes, every node a portal: exact up to 65 280, lost past it.
        let mut table = vec![UNREACHED; nodes * nodes];
        let columns = vec![0; nodes];
        LaneScratch::default().rows(moves, &columns, &[0], nodes, &mut table);
        assert_eq!(table[256], 256 * 255);
        assert_eq!(table[257], UNREACHED);
        assert_eq!(table[nodes - 1], UNREACHED);
        // One move dearer than `i16::MAX` does not fit either.
        let first_edge = [0, 1, 1];
        let edges = [(1, 40_000)];
        assert!(!lanes::fit(Moves {
            first_edge: &first_edge,
            edges: &edges,
        }));
    }

    /// Cells whose routes could pass 32 bits, or whose moves are too dear for 256 buckets,
    /// are searched with the heap.
    #[test]
    fn large_costs_take_the_heap() {
        assert_eq!(Plan::for_cell(10, 255), Plan::Dial { mask: 255 });
        assert_eq!(Plan::for_cell(10, 14), Plan::Dial { mask: 15 });
        assert_eq!(Plan::for_cell(10, 256), Plan::Heap);
        assert_eq!(Plan::for_cell(20_000_000, 255), Plan::Heap);
    }
}
