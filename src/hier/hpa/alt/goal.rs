//! The goal side of the landmark bound: per query, what the goal cell's portals know of
//! their landmark distances ([`PackedLandmarks::reach_all`]) and the constants per way
//! ([`PackedLandmarks::toward`]) that [`GoalBound`] estimates with.

use super::{GoalBound, NO_BYTE, NO_ROUTE, PackedLandmarks, is_from};

/// A way's end in quanta for no route, in [`PackedLandmarks::reach_all`].
const UNREACHED: u32 = u32::MAX;

impl<const WAYS: usize> PackedLandmarks<WAYS> {
    /// Per way of the stored `slot` (in group `group`), in quanta, the end of its values that
    /// [`Self::reach_all`] bounds with: the lowest for a from-way, the highest for a to-way
    /// ([`UNREACHED`] for no route). No branch per way, so it compiles to vector instructions.
    #[inline]
    fn ends(&self, slot: u32, group: u32) -> [u32; WAYS] {
        let (Some(row), Some(scale)) = (
            self.links
                .get(slot as usize)
                .and_then(|&link| self.rows.get(link as usize)),
            self.scales.get(group as usize),
        ) else {
            return [UNREACHED; WAYS];
        };
        std::array::from_fn(|way| {
            let x = row[way];
            // `s = base + x step`: from-ways `b + k x + k - 1`, whose lowest is `s - (k - 1)`;
            // to-ways `65 535 - (b + k x)`, whose highest is `!s + k - 1` (`k = -step`).
            let (base, step) = (scale.base[way], scale.step[way]);
            let s = base.wrapping_add(u16::from(x).wrapping_mul(step));
            let end = if is_from(way) {
                s.wrapping_sub(step).wrapping_add(1)
            } else {
                (!s).wrapping_sub(step).wrapping_sub(1)
            };
            if x == NO_BYTE {
                UNREACHED
            } else {
                u32::from(end)
            }
        })
    }

    /// What is known of the distances of every way of the goal side's portal in `slot` (in
    /// group `group`), as [`Self::toward`] asks: a lower end of the distance from the landmark
    /// (way `2 l`), an upper end of the one to it (`2 l + 1`). A stored portal's are its
    /// [`Self::range`]'s. A derived one's come through its transitions `into` it and its edges
    /// `out` of it (`(other slot, other group, cost)`), Bellman's condition holding on each
    /// (see `edits.rs`). From the landmark: at least `d(L, x) - cost` over `out`, and at least
    /// the cheapest `d(L, u) + cost` over `into` (a derived `u` taken as 0): a route from the
    /// landmark, outside the goal's cell, enters it last through a transition, and one that
    /// starts inside starts at the landmark's slot, which is stored. Unreached when some `x`
    /// is or every `u` is. To the landmark: at most `cost + d(x, L)` over `out`, and `None`
    /// without such an `x` that reaches it.
    ///
    /// All ways at once, in whole quanta (costs rounded to keep each end a bound: at most
    /// `q - 1` looser than exact): a way at a time in 64 bits it took 5.7 M of the 108.9 M
    /// instructions of 20 queries at 1024 (see `search.rs`), a derived portal reading ~30 rows.
    pub(in crate::hier::hpa) fn reach_all(
        &self,
        slot: u32,
        group: u32,
        into: impl Iterator<Item = (u32, u32, u64)>,
        out: &[(u32, u32, u64)],
    ) -> [Option<u64>; WAYS] {
        let q = self.quantum;
        let to_distance = |way: usize, end: u32| {
            let end = u64::from(end);
            if is_from(way) {
                end * q
            } else {
                end * q + q - 1
            }
        };
        if self.is_stored(slot) {
            let ends = self.ends(slot, group);
            return std::array::from_fn(|way| {
                (ends[way] != UNREACHED).then(|| to_distance(way, ends[way]))
            });
        }
        // In quanta, per way: from-ways the lower end (`UNREACHED` until an entry), to-ways
        // the upper end (`UNREACHED` until reached); `dead` for a from-way an `x` misses.
        let mut known = [UNREACHED; WAYS];
        // Capped below what would reach `UNREACHED` from a reached end (a lift lowered
        // keeps an entry a lower bound; a to-way's end that high bounds nothing anyway).
        let quanta = |cost: u64, up: bool| {
            let quanta = if up { cost.div_ceil(q) } else { cost / q };
            u32::try_from(quanta).map_or(UNREACHED >> 1, |quanta| quanta.min(UNREACHED >> 1))
        };
        // Branch-free per way (`UNREACHED` absorbs: it stays itself through the `min` and
        // the saturating adds), so the loops compile to vector instructions.
        for (from, from_group, cost) in into {
            let lift = quanta(cost, false);
            let ends = if self.is_stored(from) {
                self.ends(from, from_group)
            } else {
                [0; WAYS]
            };
            for (known, end) in known.chunks_exact_mut(2).zip(ends.chunks_exact(2)) {
                known[0] = known[0].min(end[0].saturating_add(lift));
            }
        }
        let mut dead = [false; WAYS];
        for &(next, next_group, cost) in out.iter().filter(|&&(next, _, _)| self.is_stored(next)) {
            let lift = quanta(cost, true);
            let ends = self.ends(next, next_group);
            for ((known, end), dead) in known
                .chunks_exact_mut(2)
                .zip(ends.chunks_exact(2))
                .zip(dead.chunks_exact_mut(2))
            {
                let missed = end[0] == UNREACHED;
                dead[0] |= missed;
                let low = if missed {
                    0
                } else {
                    end[0].saturating_sub(lift)
                };
                known[0] = known[0].max(low);
                known[1] = known[1].min(end[1].saturating_add(lift));
            }
        }
        std::array::from_fn(|way| {
            (known[way] != UNREACHED && !dead[way]).then(|| to_distance(way, known[way]))
        })
    }

    /// The bound toward a goal reached from portals at the costs `rest` (`goal_side`: per
    /// portal `(rest, slot)`, `None` for a portal that does not reach it): one constant per
    /// way. `reach(slot)` gives per way what is known of a portal's distances, as
    /// [`Self::reach_all`]: at most the distance from the landmark (way `2 l`), at least the
    /// distance to it (`2 l + 1`), `None` for no route from the landmark (from-way) or for a
    /// portal that may not reach it (to-way). `None` without a table.
    pub(in crate::hier::hpa) fn toward(
        &self,
        goal_side: &[(Option<u64>, u32)],
        reach: impl Fn(u32) -> [Option<u64>; WAYS],
    ) -> Option<GoalBound<WAYS>> {
        if self.is_empty() {
            return None;
        }
        let q = i128::from(self.quantum);
        let roof = i128::from(NO_ROUTE);
        // `from`: the lower end of `min (d(L, p) + rest(p))`, less the `q - 1` the upper end
        // of `d(L, v)` adds. `to`: the upper end of `max (d(p, L) - rest(p))`. A to-way of
        // a `p` that reaches the goal but maybe not the landmark bounds nothing.
        let mut offsets: [Option<i128>; WAYS] = [None; WAYS];
        let mut unbounded = [false; WAYS];
        for &(rest, slot) in goal_side {
            let Some(rest) = rest else { continue };
            let rest = i128::from(rest);
            for (way, end) in reach(slot).into_iter().enumerate() {
                let Some(end) = end else {
                    // From-ways: the landmark does not reach `p`, no route to the goal
                    // through it.
                    unbounded[way] |= !is_from(way);
                    continue;
                };
                let offset = &mut offsets[way];
                *offset = Some(if is_from(way) {
                    let through = i128::from(end) + rest - (q - 1);
                    offset.map_or(through, |best| best.min(through))
                } else {
                    let beyond = i128::from(end) - rest;
                    offset.map_or(beyond, |worst| worst.max(beyond))
                });
            }
        }
        let constants = std::array::from_fn(|way| {
            let Some(offset) = offsets[way].filter(|_| !unbounded[way]) else {
                return 0;
            };
            // In whole quanta: `from` rounded down; `to` rounded up, `B`, the constant
            // `65 535 - B`.
            let constant = if is_from(way) {
                offset.div_euclid(q).min(roof - 1)
            } else {
                roof - (offset.div_euclid(q) + i128::from(offset.rem_euclid(q) != 0)).max(0)
            };
            // Within 0 ..= 65 535 by the clamps above.
            constant.clamp(0, roof) as u16
        });
        Some(GoalBound {
            quantum: self.quantum,
            constants,
            no_route: std::array::from_fn(|way| if is_from(way) { NO_ROUTE } else { 0 }),
        })
    }
}
