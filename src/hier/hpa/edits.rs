//! Whether an update leaves the landmark distances usable.
//!
//! The landmark bounds of `alt.rs` stay lower bounds, and consistent, after any change that
//! only makes abstract edges dearer or takes them away, as long as every overlay slot still
//! holds the same portal. Let `d` be the distances the landmarks were computed on and `d'`
//! those after the change, so that `d <= d'` on every pair (no route got cheaper or new).
//! The *from* bound of a portal `v` is `min_p (d(L, p) + rest(p)) - d(L, v)` over the goal
//! cell's portals `p` (`rest` computed by the query, on the current graph). The route from
//! `v` that `d'` prices leaves through some `p*`, so
//! `d'(v, goal) = d'(v, p*) + rest(p*) >= d(v, p*) + rest(p*) >= d(L, p*) - d(L, v) + rest(p*)`
//! by the triangle inequality of `d`, which is at least the bound. The *to* bound
//! `d(v, L) - max_p (d(p, L) - rest(p))` is met the same way: `d(v, L) <= d(v, p*) + d(p*, L)
//! <= d'(v, p*) + d(p*, L)`. A portal the landmark did not reach (or that did not reach it)
//! still does not: a change that adds no edge adds no route. Consistency follows the same way,
//! one edge at a time: `d(L, v) <= d(L, u) + d(u, v) <= d(L, u) + c'(u, v)`.
//!
//! So an update keeps the landmarks when every cell it derives again keeps the same portals
//! in the same places with no in-cell cost lower than before (an unreached pair that becomes
//! reached is lower), every exit it finds again was there with the same target at no higher
//! cost, no slot moves and no cell goes. Otherwise it drops them, as every update did before:
//! a cheaper edge could make a bound overestimate.
//!
//! Measured on the built-in terrain (`long --size 512 --edits 200`, the landmarks computed
//! again after each drop to count every edit): 144 of the 200 block edits kept them; of the
//! 56 that dropped them, 39 moved a portal (an edit in a border column, where portals sit)
//! and 17 made a route inside a cell cheaper. Since one drop ends them, a run of edits keeps
//! them for a few edits only: [`Abstraction::refresh_landmarks`](super::Abstraction) is still
//! what a server runs once edits settle. Giving a moved portal values that keep Bellman's
//! condition, and checking that condition (rather than "no cheaper edge") on the changed
//! edges, would keep them through most of the rest; not done.

use super::blocks::HpaCell;
use super::{NO_SLOT, Transition};

/// Whether cell `new` has the portals of `old` (the same nodes at the same feet, in the same
/// places) and no route inside it cheaper than `old` had.
pub(super) fn no_cheaper_inside(old: &HpaCell, new: &HpaCell) -> bool {
    let count = old.portals.len();
    if new.portals != old.portals || (0..count).any(|local| new.feet(local) != old.feet(local)) {
        return false;
    }
    (0..count).all(|from| {
        let mut dearer = true;
        new.for_each_in_row(from, |to, cost| {
            dearer &= old.cost(from, to).is_some_and(|before| cost >= before);
        });
        dearer
    })
}

/// Whether the exits `new` with their target slots lead nowhere `old` did not, at no lower
/// cost: every exit with a target was there before (same source and target portal) with the
/// same target slot, at no higher cost. Both lists are sorted by `(from, to)`.
pub(super) fn no_cheaper_exits(old: (&[Transition], &[u32]), new: (&[Transition], &[u32])) -> bool {
    new.0.iter().zip(new.1).all(|(exit, &target)| {
        target == NO_SLOT
            || old
                .0
                .binary_search_by_key(&(exit.from, exit.to), |known| (known.from, known.to))
                .is_ok_and(|at| old.1[at] == target && old.0[at].cost <= exit.cost)
    })
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use super::super::landmarks::LANDMARKS;
    use crate::graph::NavGraph;
    use crate::hier::Abstraction;
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::world::{Block, ChunkedWorld};

    /// A small fixed-seed generator.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Checks that the landmark distances `hpa` keeps satisfy Bellman's condition on its
    /// current edges both ways (no edge shortens a from-distance or a to-distance, and an
    /// edge leaves no reached portal for an unreached one): what makes every bound a lower
    /// bound and consistent. The table keeps each distance as a range (a byte on its cell's
    /// scale), so the check is that some distances within the ranges satisfy it: the largest
    /// candidates (every upper end, lowered along the edges until no edge shortens one) stay
    /// at or above every lower end. Returns the edges checked.
    fn assert_feasible(hpa: &Abstraction, context: &str) -> usize {
        let slots = hpa.slot_cell.len() as u32;
        let mut edges = Vec::new();
        for slot in 0..slots {
            hpa.for_each_edge(slot, true, |next, cost| {
                edges.push((slot, next, u64::from(cost)));
            });
        }
        let table = &hpa.landmarks;
        let range = |slot: u32, way: usize| table.range(slot, hpa.slot_cell[slot as usize], way);
        for way in 0..2 * LANDMARKS {
            let to = way % 2 == 1;
            let mut best: Vec<Option<u64>> = (0..slots)
                .map(|slot| range(slot, way).map(|(_, high)| high))
                .collect();
            let mut lowered = true;
            while lowered {
                lowered = false;
                for &(u, v, cost) in &edges {
                    // `near` is the end nearer the landmark along the edge.
                    let (near, far) = if to { (v, u) } else { (u, v) };
                    let Some(d_near) = best[near as usize] else {
                        continue;
                    };
                    let d_far = best[far as usize].unwrap_or_else(|| {
                        panic!("{context}: way {way}: edge {u} -> {v} leaves the landmark's reach")
                    });
                    if d_far > d_near + cost {
                        best[far as usize] = Some(d_near + cost);
                        lowered = true;
                    }
                }
            }
            for slot in 0..slots {
                if let (Some(d), Some((low, _))) = (best[slot as usize], range(slot, way)) {
                    assert!(
                        d >= low,
                        "{context}: way {way}: slot {slot}'s distance cannot be {low} or more"
                    );
                }
            }
        }
        edges.len()
    }

    /// Random blocks placed and dug on terraces 4 x 4 cells wide (every other one on a border
    /// between cells), the abstraction updated after each and its landmarks computed again
    /// after every fourth: whenever it keeps its landmarks, through one update or several,
    /// they satisfy Bellman's condition on the updated edges, and both outcomes occur. Fails
    /// when either the in-cell check or the exits' check is left out.
    #[test]
    fn landmarks_kept_through_updates_stay_lower_bounds() {
        let mut world = ChunkedWorld::with_size(IVec3::new(64, 12, 64)).expect("valid size");
        for x in 0..64 {
            for z in 0..64 {
                let top = (x * 7 + z * 3) / 23 % 4 + if x % 16 == 7 { 3 } else { 0 };
                world
                    .fill(IVec3::new(x, 0, z), IVec3::new(x, top, z), Block::Solid)
                    .expect("inside");
            }
        }
        let costs = MoveCosts::default();
        let mut graph = NavGraph::compile(&world, &Agent::default()).expect("compiles");
        let mut hpa = Abstraction::build(&graph, &costs).expect("builds");
        let mut state = 0x5eed_1a4d_u64;
        let (mut kept, mut dropped) = (0, 0);
        for edit in 0..320_u32 {
            // Fresh landmarks every fourth edit, so some are kept through several updates.
            if edit.is_multiple_of(4) {
                hpa.refresh_landmarks();
            }
            let had = hpa.landmarks_current();
            let (mut x, z) = (next(&mut state) % 64, next(&mut state) % 64);
            if edit.is_multiple_of(2) {
                // Every other edit on a border between cells, where exits change.
                x = x / 16 * 16 + if x % 2 == 0 { 0 } else { 15 };
            }
            let y = next(&mut state) % 7 + 1;
            let block = if next(&mut state).is_multiple_of(2) {
                Block::Solid
            } else {
                Block::Air
            };
            let at = IVec3::new(x as i32, y as i32, z as i32);
            world.set(at, block).expect("inside");
            let changes = graph.update(&world, [at]).expect("updates");
            hpa.update(&graph, &changes).expect("updates");
            let changed = !changes.added.is_empty()
                || !changes.removed.is_empty()
                || !changes.changed.is_empty();
            if !had || !changed {
                continue;
            }
            if hpa.landmarks_current() {
                kept += 1;
                let edges = assert_feasible(&hpa, &format!("edit {edit} at {at}"));
                assert!(edges > 100);
            } else {
                dropped += 1;
            }
        }
        assert!(
            kept >= 40 && dropped >= 10,
            "kept {kept}, dropped {dropped}"
        );
    }
}
