//! The landmark bound of the abstract search (ALT, Goldberg and Harrelson 2005), as stored and
//! as asked per query: the distances to and from every landmark in 16-bit units of a quantum,
//! and per query one constant per landmark way, so that a portal's bound is a maximum of
//! saturating 16-bit differences (a few vector instructions).
//!
//! **Two ways per landmark** `L`, bounding the cost from a portal `v` to the goal through the
//! goal cell's portals `p` (their cost `rest(p)` to the goal known from the backward search in
//! that cell):
//! - *from* the landmark: `d(L, goal) - d(L, v)`, with `d(L, goal) = min (d(L, p) + rest(p))`;
//! - *to* the landmark: `d(v, L) - max (d(p, L) - rest(p))` (the route from `v` ends through
//!   some `p`, and `d(v, L) <= d(v, p) + d(p, L)`), usable only when every `p` that reaches the
//!   goal reaches `L`. Then a `v` that does not reach `L` reaches no such `p` either, and any
//!   bound holds for it.
//!
//! **Quantised, still admissible.** A distance `d` is stored as `x = floor(d / q)` (the quantum
//! `q` the smallest that fits the largest distance below [`NO_ROUTE`]), so `d` lies in
//! `[q x, q x + q - 1]`. Each bound takes the lower end where a distance adds and the upper end
//! where it subtracts, and the per-query constants are rounded down (from) or up (to) to whole
//! quanta, so every bound stays a lower bound, at most about `3 q` below the exact one (`q` is
//! 1 or 2 on a 2048-block world at the default costs).
//!
//! **Stored as differences.** A *from* value is stored as `x`, a *to* value as `!x`
//! (`65 535 - x`; [`NO_ROUTE`] becomes 0), so both bounds read `c - s` for a query constant
//! `c` and the stored `s`, saturating at 0: `c - x` and `(65 535 - B) - (65 535 - x) = x - B`.
//! An unusable way has `c = 0`.
//!
//! Active landmarks (each query reading only the few ways that bound its start best) were
//! measured and dropped: with 24 landmarks, the best 12 of the 48 ways expanded 35% more
//! portals than all 48 (`long --size 1024`, 20 pairs), and the reads are not what costs.

/// A stored distance for a portal the landmark does not reach, or that does not reach it.
const NO_ROUTE: u16 = u16::MAX;

/// The landmark distances of every overlay slot, quantised: `values[slot][2 l]` from landmark
/// `l` to the slot's portal, `[2 l + 1]` from the portal to the landmark (stored as `!x`).
#[derive(Debug, Clone, Default)]
pub(super) struct LandmarkTable<const WAYS: usize> {
    quantum: u64,
    values: Vec<[u16; WAYS]>,
}

/// A from-landmark way's stored value.
#[inline]
fn is_from(way: usize) -> bool {
    way.is_multiple_of(2)
}

impl<const WAYS: usize> LandmarkTable<WAYS> {
    /// A table of `slots` slots, every distance unknown, quantum 1.
    pub(super) fn unknown(slots: usize) -> Self {
        let none: [u16; WAYS] = std::array::from_fn(|way| Self::encode(way, NO_ROUTE));
        Self {
            quantum: 1,
            values: vec![none; slots],
        }
    }

    /// The stored form of the quantised distance `x` for way `way`.
    #[inline]
    fn encode(way: usize, x: u16) -> u16 {
        if is_from(way) { x } else { !x }
    }

    /// The quantised distance way `way` of `slot` holds ([`NO_ROUTE`] for none).
    #[inline]
    fn decode(&self, slot: u32, way: usize) -> u16 {
        Self::encode(way, self.values[slot as usize][way])
    }

    /// Records `distance` for way `way` of `slot`. When it does not fit below [`NO_ROUTE`]
    /// the quantum grows by the factor it needs, every stored distance divided by that factor:
    /// `floor(floor(d / q) / k) = floor(d / (q k))`, so they stay what they would have been.
    pub(super) fn set(&mut self, slot: u32, way: usize, distance: u64) {
        let limit = u64::from(NO_ROUTE - 1);
        if distance / self.quantum > limit {
            let factor = (distance / self.quantum).div_ceil(limit);
            for values in &mut self.values {
                for (way, value) in values.iter_mut().enumerate() {
                    let x = Self::encode(way, *value);
                    if x != NO_ROUTE {
                        *value = Self::encode(way, (u64::from(x) / factor) as u16);
                    }
                }
            }
            self.quantum *= factor;
        }
        let x = (distance / self.quantum) as u16;
        self.values[slot as usize][way] = Self::encode(way, x);
    }

    /// The quantum: a stored distance `x` stands for one from `q x` to `q x + q - 1`.
    #[cfg(test)]
    pub(super) fn quantum(&self) -> u64 {
        self.quantum
    }

    /// The distances way `way` of `slot` can stand for, `[low, high]` (`None` for no route).
    #[cfg(test)]
    pub(super) fn range(&self, slot: u32, way: usize) -> Option<(u64, u64)> {
        let x = self.decode(slot, way);
        (x != NO_ROUTE).then(|| {
            let low = u64::from(x) * self.quantum;
            (low, low + self.quantum - 1)
        })
    }

    /// Whether there is no table (never computed, or dropped as stale).
    pub(super) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The bytes the table holds.
    pub(super) fn memory_bytes(&self) -> usize {
        self.values.capacity() * 2 * WAYS
    }

    /// The bound toward a goal whose cell's portals in the slots `goal_side` reach it at the
    /// costs given (`None`: that portal does not): one constant per way. `None` without a
    /// table.
    pub(super) fn toward(
        &self,
        goal_side: &(impl Iterator<Item = (u32, Option<u64>)> + Clone),
    ) -> Option<GoalBound<WAYS>> {
        if self.is_empty() {
            return None;
        }
        let q = i128::from(self.quantum);
        let roof = i128::from(NO_ROUTE);
        let constants = std::array::from_fn(|way| {
            // `from`: the lower end of `min (d(L, p) + rest(p))`, less the `q - 1` the upper end
            // of `d(L, v)` adds, in whole quanta rounded down. `to`: the upper end of
            // `max (d(p, L) - rest(p))` in whole quanta rounded up, `B`; the constant `65 535 - B`.
            let mut offset: Option<i128> = None;
            for (slot, rest) in goal_side.clone() {
                let Some(rest) = rest else { continue };
                let x = self.decode(slot, way);
                if x == NO_ROUTE {
                    if is_from(way) {
                        // The landmark does not reach `p`: no route to the goal through it.
                        continue;
                    }
                    // A `p` that reaches the goal but not the landmark: the way bounds nothing.
                    return 0;
                }
                let (x, rest) = (i128::from(x) * q, i128::from(rest));
                offset = Some(if is_from(way) {
                    let through = x + rest - (q - 1);
                    offset.map_or(through, |best| best.min(through))
                } else {
                    let beyond = x + q - 1 - rest;
                    offset.map_or(beyond, |worst| worst.max(beyond))
                });
            }
            let Some(offset) = offset else { return 0 };
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
        })
    }
}

/// A query's landmark bound: per landmark way, the constant its stored values are taken from.
#[derive(Debug, Clone, Copy)]
pub(super) struct GoalBound<const WAYS: usize> {
    quantum: u64,
    constants: [u16; WAYS],
}

impl<const WAYS: usize> GoalBound<WAYS> {
    /// The bound on the cost from the portal in `slot` to the goal.
    #[inline]
    pub(super) fn estimate(&self, table: &LandmarkTable<WAYS>, slot: u32) -> u64 {
        let Some(values) = table.values.get(slot as usize) else {
            return 0;
        };
        // A fixed number of lanes, so this compiles to saturating vector subtractions.
        let best = self
            .constants
            .iter()
            .zip(values)
            .map(|(&c, &s)| c.saturating_sub(s))
            .fold(0, u16::max);
        u64::from(best) * self.quantum
    }
}

#[cfg(test)]
mod tests {
    use super::{LandmarkTable, NO_ROUTE};

    /// A small fixed-seed generator.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Shortest distances from `source` over `edges` (`(from, to, cost)`), by Bellman-Ford.
    fn distances(n: usize, edges: &[(usize, usize, u64)], source: usize) -> Vec<Option<u64>> {
        let mut dist = vec![None; n];
        dist[source] = Some(0);
        for _ in 0..n {
            for &(u, v, cost) in edges {
                if let Some(du) = dist[u]
                    && dist[v].is_none_or(|dv| du + cost < dv)
                {
                    dist[v] = Some(du + cost);
                }
            }
        }
        dist
    }

    /// On random directed graphs with costs large enough that the table quantises (quantum 2
    /// and more), the bound from every node toward random goal sides is at most its true cost
    /// to the goal, and not always 0.
    #[test]
    fn quantised_bound_is_a_lower_bound_on_random_graphs() {
        const LANDMARKS: usize = 3;
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let mut quanta = Vec::new();
        let mut positive = 0;
        for round in 0..40 {
            let n = 30 + (next(&mut state) % 30) as usize;
            let high = 2_000 + next(&mut state) % 60_000;
            let mut edges = Vec::new();
            for u in 0..n {
                for _ in 0..3 {
                    let v = (next(&mut state) % n as u64) as usize;
                    // Asymmetric costs, as climbing and dropping are.
                    edges.push((u, v, 1 + next(&mut state) % high));
                }
            }
            let reversed: Vec<_> = edges.iter().map(|&(u, v, c)| (v, u, c)).collect();
            let mut table = LandmarkTable::<{ 2 * LANDMARKS }>::unknown(n);
            for l in 0..LANDMARKS {
                let landmark = (next(&mut state) % n as u64) as usize;
                let from = distances(n, &edges, landmark);
                let to = distances(n, &reversed, landmark);
                for v in 0..n {
                    for (way, d) in [(2 * l, from[v]), (2 * l + 1, to[v])] {
                        if let Some(d) = d {
                            table.set(v as u32, way, d);
                        }
                    }
                }
                // Each stored value stands for its distance, whatever quantum came later.
                for v in 0..n {
                    for (way, d) in [(2 * l, from[v]), (2 * l + 1, to[v])] {
                        let range = table.range(v as u32, way);
                        assert_eq!(range.is_some(), d.is_some(), "round {round}");
                        if let (Some((low, high)), Some(d)) = (range, d) {
                            assert!(
                                low <= d && d <= high,
                                "round {round}: {d} in {low}..={high}"
                            );
                        }
                    }
                }
            }
            quanta.push(table.quantum());
            // Goal sides: a few nodes, each reaching the goal at some cost or not at all.
            let all: Vec<_> = (0..n).map(|v| distances(n, &edges, v)).collect();
            for _ in 0..5 {
                let side: Vec<(u32, Option<u64>)> = (0..4)
                    .map(|_| {
                        let p = (next(&mut state) % n as u64) as u32;
                        let rest = (!next(&mut state).is_multiple_of(4))
                            .then(|| next(&mut state) % 40_000);
                        (p, rest)
                    })
                    .collect();
                let bound = table.toward(&side.iter().copied()).expect("a table");
                for (v, dist) in all.iter().enumerate() {
                    let truth = side
                        .iter()
                        .filter_map(|&(p, rest)| Some(dist[p as usize]? + rest?))
                        .min();
                    let estimate = bound.estimate(&table, v as u32);
                    if let Some(truth) = truth {
                        assert!(estimate <= truth, "round {round}: {estimate} > {truth}");
                        positive += usize::from(estimate > 0);
                    }
                }
            }
        }
        assert!(
            quanta.iter().any(|&q| q >= 2),
            "never quantised: {quanta:?}"
        );
        assert!(
            positive > 500,
            "the bound was positive only {positive} times"
        );
        assert_eq!(NO_ROUTE, u16::MAX);
    }
}
