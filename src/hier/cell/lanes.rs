//! Many rows of a cell's table in one search: per numbered node a vector of 16-bit costs,
//! one lane per source portal, and each move relaxed for every lane at once
//! (`d[v][k] = min(d[v][k], d[u][k] + c)`, saturating), as Bellman-Ford to a fixed point.
//!
//! The nodes are visited in sweeps over the cell's columns in the four orders of the fast
//! sweeping method (x up and z up, x up and z down, then both reversed), each sweep visiting
//! only the nodes lowered since their last visit, until none is. Per move a visit costs a few
//! SSE2 instructions per 8 lanes (`paddsw`, `pminsw`: the costs are kept less 2^15, so the
//! signed saturating add and min are the unsigned ones), against about 17 scalar ones per
//! row and move for Dial's search ([`super::rows`]).
//!
//! Measured with callgrind on `'*Abstraction*update*'`, one dump per update (`HIER_ENGINE=hpa
//! long --size 1024 --pairs 1 --edits 200 --refresh-landmarks`), and node visits per node
//! in the build at 1024 (`long --edits 0`, 32 lanes):
//!
//! | rows searched by | 200 edits | median edit | visits per node |
//! |---|---|---|---|
//! | Dial, one search per row (before) | 346.9 M | 1.062 M | - |
//! | lanes, FIFO worklist, u16 lanes (`min` as `psubusw`, `psubw`) | 347.7 M | 1.073 M | 4.16 |
//! | lanes, FIFO worklist, lanes less 2^15 (`pminsw`) | 329.7 M | 0.981 M | 4.16 |
//! | lanes, sweeps in numbering order and back, u16 lanes | 368.5 M | 1.149 M | 3.34 |
//! | lanes, FIFO, a node taking the least over its moves in | 372.4 M | 1.153 M | 5.74 |
//! | lanes, sweeps over the columns | 302.0 M | 0.827 M | 2.45 |
//! | the same, groups of 8 to 32 lanes as the rows need | 297.8 M | 0.798 M | - |
//! | the same, one loop over a sweep's nodes, no closure call per node (kept) | 295.9 M | 0.789 M | - |
//!
//! (The rows above the last two took groups of 8, 16 or 32 lanes. With 16 lanes the FIFO
//! visits 2.79 times per node and with 8 1.84, the column sweeps 1.80 with 16; taking the
//! least over the moves in, 16 lanes: 381.6 M, and over the column sweeps 3.55 visits per
//! node.) At most 24, 32, 48 or 64 lanes a group cost the same at `--size 512` (200 edits
//! 302.4 M, 301.7 M, 301.8 M, 302.1 M; before 353.9 M); searching cells with fewer than 4
//! rows to search by Dial did not pay (302.8 M against 302.4 M). The one-thread build at
//! 1024 (`'*Abstraction*build*'`, `--no-default-features --features terrain,anvil`): 5.49 G
//! to 4.62 G, its rows 2.24 G to 1.22 G; the 1.21.11 save's 200 edits' updates
//! (`reach_edit --edits 200 --long-routes`): 560.2 M to 505.3 M.

use super::UNREACHED;
use super::rows::Moves;

/// The most lanes of one search: a cell's searched rows go in groups of at most this many,
/// each group as many lanes as its rows rounded up to 8 (an SSE2 register).
const MAX_LANES: usize = 32;

/// Reusable buffers of the lane searches.
#[derive(Debug, Default, Clone)]
pub(super) struct LaneScratch {
    /// `N` lanes per numbered node, each a cost less 2^15 (`i16::MAX`: none yet), so that
    /// a signed saturating add and a signed min are the unsigned ones.
    dist: Vec<i16>,
    /// Per numbered node: lowered since its last visit.
    pending: Vec<bool>,
    /// The numbered nodes by column (x up, z up), then by (x up, z down).
    orders: Vec<u32>,
}

/// Whether the lanes hold every row of the cell whose moves are `moves` exactly. A route
/// that visits no node twice costs at most the sum of each node's dearest move out, and a
/// shortest route is such a route: when that sum stays below `u16::MAX`, no shortest route
/// saturates. Every lane entry below `u16::MAX` is some route's cost, so at the fixed point
/// the entries are the shortest routes' costs. A move dearer than `i16::MAX` would not add
/// as a signed lane.
pub(super) fn fit(moves: Moves<'_>) -> bool {
    let mut bound = 0u64;
    for bounds in moves.first_edge.windows(2) {
        let out = &moves.edges[bounds[0] as usize..bounds[1] as usize];
        let dearest = out.iter().map(|&(_, cost)| cost).max().unwrap_or(0);
        if dearest > i16::MAX as u32 {
            return false;
        }
        bound += u64::from(dearest);
    }
    bound < u64::from(u16::MAX)
}

impl LaneScratch {
    /// The rows `sources` of the table `table` (`n x n`, the portals the first `n` nodes)
    /// of the cell whose moves are `moves`, which must [`fit`]; `places[i]`: numbered node
    /// `i`'s column in the cell, `x * 16 + z`. Rows not in `sources` are left as they are.
    pub(super) fn rows(
        &mut self,
        moves: Moves<'_>,
        places: &[u8],
        sources: &[usize],
        n: usize,
        table: &mut [u32],
    ) {
        self.order(places);
        let mut rest = sources;
        while !rest.is_empty() {
            let width = rest.len().div_ceil(8).min(MAX_LANES / 8) * 8;
            let (group, after) = rest.split_at(rest.len().min(width));
            match width {
                32 => self.fill::<32>(moves, group, n, table),
                24 => self.fill::<24>(moves, group, n, table),
                16 => self.fill::<16>(moves, group, n, table),
                _ => self.fill::<8>(moves, group, n, table),
            }
            rest = after;
        }
    }

    /// Fills [`LaneScratch::orders`]: two counting sorts of the nodes by column, by
    /// `x * 16 + z` and by `x * 16 + 15 - z`.
    fn order(&mut self, places: &[u8]) {
        self.orders.clear();
        self.orders.resize(2 * places.len(), 0);
        for (flip, order) in [0, 15]
            .into_iter()
            .zip(self.orders.chunks_exact_mut(places.len().max(1)))
        {
            let mut first = [0u32; 257];
            for &place in places {
                first[usize::from(place ^ flip) + 1] += 1;
            }
            for i in 0..256 {
                first[i + 1] += first[i];
            }
            for (node, &place) in places.iter().enumerate() {
                let at = &mut first[usize::from(place ^ flip)];
                order[*at as usize] = node as u32;
                *at += 1;
            }
        }
    }

    /// The rows `sources` (at most `N`) in one search of `N` lanes.
    fn fill<const N: usize>(
        &mut self,
        moves: Moves<'_>,
        sources: &[usize],
        n: usize,
        table: &mut [u32],
    ) {
        debug_assert!(sources.len() <= N);
        let count = moves.first_edge.len() - 1;
        self.dist.clear();
        self.dist.resize(count * N, i16::MAX);
        self.pending.clear();
        self.pending.resize(count, false);
        let (dist, _) = self.dist.as_chunks_mut::<N>();
        for (lane, &source) in sources.iter().enumerate() {
            dist[source][lane] = i16::MIN;
        }
        sweeps(moves, dist, &mut self.pending, &self.orders, sources);
        for (lane, &source) in sources.iter().enumerate() {
            let row = &mut table[source * n..(source + 1) * n];
            for (cost, costs) in row.iter_mut().zip(&dist[..n]) {
                *cost = match costs[lane] {
                    i16::MAX => UNREACHED,
                    reached => u32::from(reached as u16 ^ 0x8000),
                };
            }
        }
    }
}

/// The sweeps to the fixed point from `sources` (their own lanes set to 0 in `dist`, every
/// `pending` false), in `orders` ([`LaneScratch::orders`]) forwards, then backwards.
#[inline(never)]
fn sweeps<const N: usize>(
    moves: Moves<'_>,
    dist: &mut [[i16; N]],
    pending: &mut [bool],
    orders: &[u32],
    sources: &[usize],
) {
    let mut left = 0usize;
    for &source in sources {
        if !pending[source] {
            pending[source] = true;
            left += 1;
        }
    }
    let count = pending.len();
    let (up, down) = orders.split_at(count);
    let mut sweep = 0;
    while left > 0 {
        let order = if sweep % 2 == 0 { up } else { down };
        let backwards = sweep % 4 >= 2;
        for step in 0..count {
            let node = order[if backwards { count - 1 - step } else { step }] as usize;
            if !pending[node] {
                continue;
            }
            pending[node] = false;
            left -= 1;
            let from = dist[node];
            let out = moves.first_edge[node] as usize..moves.first_edge[node + 1] as usize;
            for &(target, cost) in &moves.edges[out] {
                let target = target as usize;
                // Lane by lane (vectorized), `to` lowered to `from + cost`, saturating.
                let mut fell = 0;
                for (to, &from) in dist[target].iter_mut().zip(&from) {
                    let lower = (*to).min(from.saturating_add(cost as i16));
                    fell |= *to ^ lower;
                    *to = lower;
                }
                if fell != 0 && !pending[target] {
                    pending[target] = true;
                    left += 1;
                }
            }
        }
        sweep += 1;
    }
}
