//! The per-direction tables of the jump search: which neighbourhood bits each move needs,
//! the natural and forced moves of each arrival (see the module notes of [`super`]), and the
//! check that the costs let every non-canonical pair of moves be replaced.

use glam::IVec3;

use super::fits::{ALL_AROUND, Fits, around_bit};
use super::{JUMP_LIMITS, START, TABLE_LIMITS};
use crate::moves::agent::MoveCosts;
use crate::moves::fly::{FREE_DIRECTIONS, step_cost};

/// The per-direction tables of one set of costs, over the 27 "fits" bits around a position
/// (see [`fits`](super::fits)): the same for every body height.
#[derive(Debug, Clone)]
pub(super) struct Tables {
    /// The positions (neighbourhood bits) the move in each direction needs.
    pub(super) required: [u32; 26],
    /// For each arrival, the moves that may be forced after it: the move's direction, the
    /// positions of the move and those of each of its replacements ([`replacements`], see
    /// the module notes); the move is forced when the first fit and none of the others do.
    /// Natural moves and moves back to the parent are left out. Most moves have one
    /// replacement, the canonical steps: they are kept apart (`forced`), in a shorter loop.
    pub(super) forced: Box<[Vec<(u32, u32, u32)>; 26]>,
    pub(super) forced_more: Box<[Vec<ForcedPair>; 26]>,
    /// The natural moves of each arrival (bit `i` for [`FREE_DIRECTIONS`]`[i]`), all 26 for
    /// [`START`].
    pub(super) natural: [u32; 27],
    /// The natural moves of each direction other than itself, the sub-jumps of a jump.
    pub(super) sub: [u32; 26],
    /// The step cost of each direction.
    pub(super) step: [u32; 26],
    /// The most steps of a face jump scanned by word: its cost fits `u32`.
    pub(super) face_cap: u32,
    /// Whether face jumps scan by word where the world has rays
    /// ([`JumpSearch::with_straight_scans`](super::JumpSearch::with_straight_scans)).
    pub(super) scans: bool,
    /// The directions whose jumps read positions ahead ([`JUMP_LIMITS`] not 0), without
    /// scans (`[0]`) and with them (`[1]`).
    pub(super) read_ahead: [u32; 2],
    /// With [`JumpTables`](super::JumpTables): the limits of edge and corner jumps ([`TABLE_LIMITS`]), and the
    /// directions whose jumps read ahead (every face, and the diagonals whose limit is not 0).
    pub(super) plus_limits: [u32; 2],
    pub(super) plus_ahead: u32,
    /// The face and edge directions, whose jumps [`JumpTables`](super::JumpTables) answer.
    pub(super) tabled: u32,
}

/// The offset's components, each `-1`, `0` or `1`.
pub(super) fn sign(v: IVec3) -> IVec3 {
    v.signum()
}

/// How many axes `d` changes.
pub(super) const fn rank(d: IVec3) -> u32 {
    (d.x != 0) as u32 + (d.y != 0) as u32 + (d.z != 0) as u32
}

/// Whether `e` is natural after `d`: every axis `e` changes, `d` changes the same way.
pub(super) fn is_natural(d: IVec3, e: IVec3) -> bool {
    (0..3).all(|i| e[i] == 0 || e[i] == d[i])
}

/// The canonical steps from one position to another `v` away (each component in `-2..=2`,
/// not all zero): `sign(v)`, then `sign` of the rest when it is not zero.
pub(super) fn canonical(v: IVec3) -> (IVec3, Option<IVec3>) {
    let first = sign(v);
    let rest = v - first;
    (first, (rest != IVec3::ZERO).then(|| sign(rest)))
}

/// The neighbourhood bits (see [`around_bit`]) of the positions the body must fit at for the
/// move from `a` to its neighbour `b`, both relative to the centre and within one cell of it
/// across: `a + s` for every `s` made of some of the components of `b - a`.
pub(super) fn move_bits(a: IVec3, b: IVec3) -> u32 {
    let d = b - a;
    let mut bits = 0;
    for sx in [0, d.x] {
        for sy in [0, d.y] {
            for sz in [0, d.z] {
                bits |= around_bit(a + IVec3::new(sx, sy, sz));
            }
        }
    }
    bits
}

/// A move that may be forced after an arrival: its direction, the positions of its move, and
/// those of each of its replacements (see [`Tables::forced`]), [`NEVER`] after the last.
type ForcedPair = (u32, u32, [u32; REPLACEMENTS]);

/// The most replacements of a pair of moves [`replacements`] gives.
pub(super) const REPLACEMENTS: usize = 4;

/// A neighbourhood mask no neighbourhood holds (they have 27 bits): the filler of unused
/// replacements, which never fits.
const NEVER: u32 = 1 << 31;

/// The neighbourhood bits of the routes that replace the non-natural pair `d` then `e`
/// through the centre (from `-d` to `e`) and are better whatever the costs (see the module
/// notes): the canonical steps, and every pair of a move of `e`'s rank then one of `d`'s
/// that puts the move with more components first (the same cost, a better sequence of
/// component counts) and stays in the neighbourhood. The pair is forced when none fits.
fn replacements(d: IVec3, e: IVec3) -> [u32; REPLACEMENTS] {
    let (from, sum) = (-d, d + e);
    let mut out = [NEVER; REPLACEMENTS];
    out[0] = match canonical(sum) {
        (first, None) => move_bits(from, from + first),
        (first, Some(_)) => move_bits(from, from + first) | move_bits(from + first, e),
    };
    let mut count = 1;
    for &first in &FREE_DIRECTIONS {
        let (second, via) = (sum - first, from + first);
        let in_reach = second != IVec3::ZERO
            && second.abs().max_element() <= 1
            && via.abs().max_element() <= 1;
        if !(in_reach && rank(first) == rank(e) && rank(second) == rank(d) && rank(e) > rank(d)) {
            continue;
        }
        let bits = move_bits(from, via) | move_bits(via, e);
        if !out[..count.min(REPLACEMENTS)].contains(&bits) {
            // Dropping one would only force more moves; there are at most three.
            if count < REPLACEMENTS {
                out[count] = bits;
            }
            count += 1;
        }
    }
    debug_assert!(count <= REPLACEMENTS, "{d} then {e}: {count} replacements");
    out
}

impl Tables {
    pub(super) fn new(costs: &MoveCosts) -> Self {
        let dirs = FREE_DIRECTIONS;
        let required = dirs.map(|e| move_bits(IVec3::ZERO, e));
        let mut forced: Box<[Vec<(u32, u32, u32)>; 26]> = Box::default();
        let mut forced_more: Box<[Vec<ForcedPair>; 26]> = Box::default();
        let mut natural = [0u32; 27];
        natural[START] = (1 << 26) - 1;
        let mut sub = [0u32; 26];
        for (a, &d) in dirs.iter().enumerate() {
            for (j, &e) in dirs.iter().enumerate() {
                if is_natural(d, e) {
                    natural[a] |= 1 << j;
                    if j != a {
                        sub[a] |= 1 << j;
                    }
                    continue;
                }
                let v = d + e;
                if v == IVec3::ZERO {
                    // Back to the parent: the route without the loop is never dearer.
                    continue;
                }
                match replacements(d, e) {
                    [only, NEVER, ..] => forced[a].push((j as u32, required[j], only)),
                    all => forced_more[a].push((j as u32, required[j], all)),
                }
            }
        }
        Self {
            required,
            forced,
            forced_more,
            natural,
            sub,
            step: dirs.map(|d| step_cost(costs, d)),
            face_cap: u32::MAX / costs.straight.max(1),
            scans: false,
            read_ahead: [false, true].map(|scans| {
                (0..26)
                    .filter(|&j| {
                        let r = rank(dirs[j]);
                        (scans && r == 1) || JUMP_LIMITS[r as usize - 1] != 0
                    })
                    .fold(0, |bits, j| bits | 1 << j)
            }),
            plus_limits: TABLE_LIMITS,
            plus_ahead: plus_ahead(TABLE_LIMITS),
            tabled: (0..26)
                .filter(|&j| rank(dirs[j]) <= 2)
                .fold(0, |bits, j| bits | 1 << j),
        }
    }

    /// The directions whose jumps read positions ahead in `fits`' world, as bits of
    /// [`FREE_DIRECTIONS`]; the others end on their first step.
    #[inline]
    pub(super) fn ahead(&self, fits: &Fits, plus: bool) -> u32 {
        if plus {
            return self.plus_ahead;
        }
        self.read_ahead[usize::from(self.scans && fits.has_rays())]
    }

    /// Whether a jump in `dir` scans by word (see [`JUMP_LIMITS`]).
    #[inline]
    pub(super) fn scans(&self, dir: usize, fits: &Fits) -> bool {
        self.scans && rank(FREE_DIRECTIONS[dir]) == 1 && fits.has_rays()
    }

    /// How many positions a jump in `dir` reads before it stops (see [`JUMP_LIMITS`]).
    #[inline]
    pub(super) fn limit(&self, dir: usize, fits: &Fits) -> u32 {
        if self.scans(dir, fits) {
            return self.face_cap;
        }
        JUMP_LIMITS[rank(FREE_DIRECTIONS[dir]) as usize - 1]
    }

    /// The forced moves after the arrival `a` (not [`START`]) at a position whose
    /// neighbourhood is `around`.
    ///
    /// Its tests mispredict more than any other line of the search in callgrind's model of a
    /// branch predictor. Session 29 joined them without a branch (`&` of the two), and the
    /// positions' equality tests of the jumps too (`x`, `y` and `z` compared at once) and their
    /// reads of vectors by axis (`IVec3`'s `Index` matches on the axis): on the large set's
    /// priming and timed passes 4.75 M to 3.41 M mispredicted branches for 383.0 M to 391.1 M
    /// instructions, and the same time per query (three interleaved quiet runs of nine passes:
    /// 724-739 us before, 719-733 us after). The processor's predictor, which keeps a history,
    /// already guesses these; not kept.
    #[inline]
    pub(super) fn forced_moves(&self, a: usize, around: u32) -> u32 {
        if around == ALL_AROUND {
            return 0;
        }
        let mut out = 0u32;
        for &(j, move_cells, replacement) in &self.forced[a] {
            if around & move_cells == move_cells && around & replacement != replacement {
                out |= 1 << j;
            }
        }
        for &(j, move_cells, replacements) in &self.forced_more[a] {
            if around & move_cells == move_cells && replacements.iter().all(|&r| around & r != r) {
                out |= 1 << j;
            }
        }
        out
    }
}

/// The directions (bits of [`FREE_DIRECTIONS`]) whose jumps read ahead with [`JumpTables`](super::JumpTables)
/// under the edge and corner `limits`.
pub(super) fn plus_ahead(limits: [u32; 2]) -> u32 {
    (0..26)
        .filter(|&j| {
            let r = rank(FREE_DIRECTIONS[j]);
            r == 1 || limits[r as usize - 2] != 0
        })
        .fold(0, |bits, j| bits | 1 << j)
}

/// Whether the costs let every non-canonical pair of moves be replaced by its canonical steps
/// (see the module notes): `None` when they do, else the first pair that fails.
pub(super) fn canonical_cost_failure(costs: &MoveCosts) -> Option<(IVec3, IVec3)> {
    let cost = |d: IVec3| u64::from(step_cost(costs, d));
    for &d in &FREE_DIRECTIONS {
        for &e in &FREE_DIRECTIONS {
            let v = d + e;
            if is_natural(d, e) || v == IVec3::ZERO {
                continue;
            }
            let (before, after) = (cost(d) + cost(e), canonical(v));
            let ok = match after {
                (first, None) => cost(first) <= before,
                (first, Some(second)) => {
                    let now = cost(first) + cost(second);
                    now < before
                        || now == before && (rank(first), rank(second)) > (rank(d), rank(e))
                }
            };
            if !ok {
                return Some((d, e));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The route from `-d` to `e` through `-d + f` (`f = None`: the one move `e + d`) as the
    /// replacement argument orders routes, from the octile costs: cost, then fewer moves,
    /// then more components first. `None` when it leaves the neighbourhood or its moves are
    /// no unit moves.
    fn route(d: IVec3, e: IVec3, f: Option<IVec3>) -> Option<(u32, u32, [u32; 2], u32)> {
        let costs = MoveCosts::octile();
        let unit = |m: IVec3| m != IVec3::ZERO && m.abs().max_element() <= 1;
        let p = -d;
        let moves = match f {
            None => vec![e - p],
            Some(f) => vec![f, e - p - f],
        };
        let mut at = p;
        let mut bits = 0;
        for &m in &moves {
            if !unit(m) || (at + m).abs().max_element() > 1 {
                return None;
            }
            bits |= move_bits(at, at + m);
            at += m;
        }
        let cost = moves.iter().map(|&m| step_cost(&costs, m)).sum();
        // Fewer components sort first, so negate them for "more components first".
        let ranks = [0, 1].map(|i| 3 - moves.get(i).map_or(3, |&m| rank(m)));
        Some((cost, moves.len() as u32, ranks, bits))
    }

    /// A move the rules leave unforced after an arrival (it fits, it is not natural) can
    /// always be replaced: some route of one or two moves from the position before to the
    /// one after, inside the neighbourhood, fits and is better (cheaper, shorter, or the
    /// same moves with more components first), found here by trying every route. Random
    /// neighbourhoods of every density where the arrival fits; the replacements beyond the
    /// canonical steps must also leave moves unforced that the canonical steps alone would
    /// force.
    #[test]
    fn unforced_moves_have_a_better_route_that_fits() {
        let tables = Tables::new(&MoveCosts::octile());
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let (mut unforced, mut by_others) = (0usize, 0usize);
        for round in 0..3_000u32 {
            // Each position free with a probability of 1/2 to 15/16.
            let mut around = 0u32;
            for bit in 0..27 {
                if next() % 16 < u64::from(8 + round % 8) {
                    around |= 1 << bit;
                }
            }
            for (a, &d) in FREE_DIRECTIONS.iter().enumerate() {
                // The arrival's own move fits.
                let around = around | move_bits(-d, IVec3::ZERO);
                let forced = tables.forced_moves(a, around);
                for (j, &e) in FREE_DIRECTIONS.iter().enumerate() {
                    let fits = around & tables.required[j] == tables.required[j];
                    if is_natural(d, e) || d + e == IVec3::ZERO || !fits {
                        assert_eq!(forced & 1 << j, 0, "{d} then {e} in {around:#x}");
                        continue;
                    }
                    if forced & 1 << j != 0 {
                        continue;
                    }
                    unforced += 1;
                    let (cost, count, ranks, _) = route(d, e, Some(d)).unwrap();
                    let pair = (cost, count, ranks);
                    let better = std::iter::once(None)
                        .chain(FREE_DIRECTIONS.iter().map(|&f| Some(f)))
                        .filter_map(|f| route(d, e, f))
                        .any(|(c, n, r, b)| (c, n, r) < pair && around & b == b);
                    assert!(better, "{d} then {e} unforced in {around:#x}");
                    let (first, second) = canonical(d + e);
                    let canonical_bits = route(d, e, second.map(|_| first)).unwrap().3;
                    by_others += usize::from(around & canonical_bits != canonical_bits);
                }
            }
        }
        assert!(
            unforced > 500_000 && by_others > 5_000,
            "{unforced} unforced, {by_others} by other routes"
        );
    }
}
