//! The landmark bound of the abstract search (ALT, Goldberg and Harrelson 2005), as stored and
//! as asked per query: the distances to and from every landmark, one byte per slot and way on
//! a per-cell scale ([`PackedLandmarks`]), and per query one constant per landmark way, so that
//! a portal's bound is a maximum of saturating 16-bit differences (a few vector instructions).
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
//! **Quantised twice, still admissible.** The Dijkstras' distances `d` are first quantised to
//! 16 bits ([`LandmarkTable`], while the landmarks are computed): `X = floor(d / q)`, the
//! quantum `q` the smallest that fits the largest distance below [`NO_ROUTE`], so `d` lies in
//! `[q X, q X + q - 1]`. Then each cell keeps, per way, a 16-bit base `b` and step `k` (the
//! smallest that spans its portals' values in 255 steps), and each slot the byte
//! `x = floor((X - b) / k)`, so `X` lies in `[b + k x, b + k x + k - 1]` (the byte 255 stands for
//! no route). Each bound takes the lower end where a distance adds and the upper end where it
//! subtracts, and the per-query constants are rounded down (from) or up (to) to whole quanta,
//! so every bound stays a lower bound, at most about `q (k + k')` below the exact one (`k'` the
//! goal cell's step; `q` is 1 or 2 on a 2048-block world at the default costs, `k` 1 for half
//! the cells and ways at 2048, 2 or 3 for a third, more only where cliffs split a cell).
//!
//! **Stored as differences.** A *from* value is read as the upper end `s = X_high`, a *to* value
//! as `s = 65 535 - X_low`, so both bounds read `c - s` for a query constant `c`, saturating at
//! 0: `c - X_high` and `(65 535 - B) - (65 535 - X_low) = X_low - B`. Both are one 16-bit
//! multiply and add per way, `s = base + x step` (wrapping): base `b + k - 1` and step `k` for a
//! *from* way, base `65 535 - b` and step `-k` for a *to* way. An unusable way has `c = 0`; no
//! route reads as `s = 65 535` (*from*: no bound) or `s = 0` (*to*: that portal reaches no goal).
//!
//! Two bytes per slot and way (a global quantum only) took 38.0 MB at 2048, as much as the rest
//! of the abstraction; one byte on a global quantum (`q` near 250) cost 57% more query
//! instructions; the per-cell scale costs 160 bytes per cell (2.6 MB at 2048).
//!
//! Active landmarks (each query reading only the few ways that bound its start best) were
//! measured and dropped: with 24 landmarks, the best 12 of the 48 ways expanded 35% more
//! portals than all 48 (`long --size 1024`, 20 pairs), and the reads are not what costs.

/// A 16-bit distance for a portal the landmark does not reach, or that does not reach it.
const NO_ROUTE: u16 = u16::MAX;

/// A slot's byte for no route.
const NO_BYTE: u8 = u8::MAX;

/// The landmark distances of every overlay slot quantised to 16 bits, while they are computed:
/// `values[slot][2 l]` from landmark `l` to the slot's portal, `[2 l + 1]` from the portal to
/// the landmark. [`LandmarkTable::pack`] makes the table the abstraction keeps.
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
        Self {
            quantum: 1,
            values: vec![[NO_ROUTE; WAYS]; slots],
        }
    }

    /// Records `distance` for way `way` of `slot`. When it does not fit below [`NO_ROUTE`]
    /// the quantum grows by the factor it needs, every stored distance divided by that factor:
    /// `floor(floor(d / q) / k) = floor(d / (q k))`, so they stay what they would have been.
    pub(super) fn set(&mut self, slot: u32, way: usize, distance: u64) {
        let limit = u64::from(NO_ROUTE - 1);
        if distance / self.quantum > limit {
            let factor = (distance / self.quantum).div_ceil(limit);
            for value in self.values.iter_mut().flatten() {
                if *value != NO_ROUTE {
                    *value = (u64::from(*value) / factor) as u16;
                }
            }
            self.quantum *= factor;
        }
        // At most `limit` by the quantum.
        self.values[slot as usize][way] = (distance / self.quantum) as u16;
    }

    /// The quantum: a stored distance `x` stands for one from `q x` to `q x + q - 1`.
    #[cfg(test)]
    pub(super) fn quantum(&self) -> u64 {
        self.quantum
    }

    /// The distances way `way` of `slot` can stand for, `[low, high]` (`None` for no route).
    #[cfg(test)]
    pub(super) fn range(&self, slot: u32, way: usize) -> Option<(u64, u64)> {
        let x = self.values[slot as usize][way];
        (x != NO_ROUTE).then(|| {
            let low = u64::from(x) * self.quantum;
            (low, low + self.quantum - 1)
        })
    }

    /// The table packed to a byte per slot and way, on a scale per group of slots (`groups[slot]`
    /// the slot's group, numbered from 0: the abstraction's cells).
    pub(super) fn pack(&self, groups: &[u32]) -> PackedLandmarks<WAYS> {
        let count = groups
            .iter()
            .map(|&group| group as usize + 1)
            .max()
            .unwrap_or(0);
        // Per group and way, the lowest and highest value.
        let mut spans = vec![[(NO_ROUTE, 0u16); WAYS]; count];
        for (values, &group) in self.values.iter().zip(groups) {
            for (span, &x) in spans[group as usize].iter_mut().zip(values) {
                if x != NO_ROUTE {
                    *span = (span.0.min(x), span.1.max(x));
                }
            }
        }
        let scales: Vec<Scale<WAYS>> = spans.iter().map(Scale::spanning).collect();
        let values = self
            .values
            .iter()
            .zip(groups)
            .map(|(values, &group)| {
                let scale = &scales[group as usize];
                std::array::from_fn(|way| {
                    let x = values[way];
                    if x == NO_ROUTE {
                        return NO_BYTE;
                    }
                    let (b, k) = scale.span(way);
                    // Below 255 by `span_scale`.
                    ((x - b) / k) as u8
                })
            })
            .collect();
        PackedLandmarks {
            quantum: self.quantum,
            values,
            scales,
        }
    }
}

/// The base `b` and step `k` of a group whose values span `low ..= high` (below [`NO_ROUTE`]):
/// the smallest `k` with every value's byte `(x - b) / k` below [`NO_BYTE`], and `b` at most
/// `low` with `b + 255 k - 1` within 16 bits (the upper end of the highest byte's values).
fn span_scale(low: u16, high: u16) -> (u16, u16) {
    if low > high {
        // No value: any scale.
        return (0, 1);
    }
    let buckets = u32::from(NO_BYTE);
    let k = (u32::from(high - low) + 1).div_ceil(buckets);
    // `255 k <= 255 * 257 = 65 535`, so the base is in 16 bits; lowered only when the top
    // bucket would pass 65 535, and then still at most `low` (and `high < b + 255 k`).
    let b = u32::from(low).min((1 << 16) - buckets * k);
    (b as u16, k as u16)
}

/// One group's scale: per way the base and step (wrapping) of `s = base + x step`.
#[derive(Debug, Clone, Copy)]
struct Scale<const WAYS: usize> {
    base: [u16; WAYS],
    step: [u16; WAYS],
}

impl<const WAYS: usize> Scale<WAYS> {
    /// The scale of a group whose values span `spans[way]` (`(low, high)`; none when `low`
    /// is above `high`).
    fn spanning(spans: &[(u16, u16); WAYS]) -> Self {
        let mut scale = Scale {
            base: [0; WAYS],
            step: [0; WAYS],
        };
        for (way, &(low, high)) in spans.iter().enumerate() {
            let (b, k) = span_scale(low, high.max(low));
            (scale.base[way], scale.step[way]) = if is_from(way) {
                (b + (k - 1), k)
            } else {
                (NO_ROUTE - b, k.wrapping_neg())
            };
        }
        scale
    }

    /// Way `way`'s base `b` and step `k`: a byte `x` stands for the values from `b + k x` to
    /// `b + k x + k - 1`.
    #[inline]
    fn span(&self, way: usize) -> (u16, u16) {
        if is_from(way) {
            let k = self.step[way];
            (self.base[way] - (k - 1), k)
        } else {
            (NO_ROUTE - self.base[way], self.step[way].wrapping_neg())
        }
    }
}

/// The landmark distances of every overlay slot the abstraction keeps: a byte per slot and
/// way on its group's (cell's) scale (see the [module docs](self)).
#[derive(Debug, Clone, Default)]
pub(super) struct PackedLandmarks<const WAYS: usize> {
    quantum: u64,
    values: Vec<[u8; WAYS]>,
    scales: Vec<Scale<WAYS>>,
}

impl<const WAYS: usize> PackedLandmarks<WAYS> {
    /// Whether there is no table (never computed, or dropped as stale).
    pub(super) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The bytes the table holds.
    pub(super) fn memory_bytes(&self) -> usize {
        self.values.capacity() * WAYS + self.scales.capacity() * std::mem::size_of::<Scale<WAYS>>()
    }

    /// The 16-bit values way `way` of `slot` (in group `group`) can stand for, `[low, high]`
    /// (`None` for no route).
    #[inline]
    fn values(&self, slot: u32, group: u32, way: usize) -> Option<(u16, u16)> {
        let x = self.values[slot as usize][way];
        let (b, k) = self.scales[group as usize].span(way);
        (x != NO_BYTE).then(|| {
            let low = b + k * u16::from(x);
            (low, low + (k - 1))
        })
    }

    /// The quantum of the 16-bit values the bytes stand for.
    #[cfg(test)]
    pub(super) fn quantum(&self) -> u64 {
        self.quantum
    }

    /// The distances way `way` of `slot` (in group `group`) can stand for, `[low, high]`
    /// (`None` for no route).
    #[inline]
    pub(super) fn range(&self, slot: u32, group: u32, way: usize) -> Option<(u64, u64)> {
        self.values(slot, group, way).map(|(low, high)| {
            let q = self.quantum;
            (u64::from(low) * q, u64::from(high) * q + q - 1)
        })
    }

    /// Gives way `way` of `slot` (in group `group`) the highest byte whose distances all lie
    /// at or below `at_most` (`None`: no route); false, storing nothing, when none does on
    /// the group's scale (the scales and the quantum never change here).
    pub(super) fn store_at_most(
        &mut self,
        slot: u32,
        group: u32,
        way: usize,
        at_most: Option<u64>,
    ) -> bool {
        let x = match at_most {
            None => NO_BYTE,
            Some(at_most) => {
                // The highest 16-bit value `X` with `q X + q - 1 <= at_most`, then the highest
                // byte `x` with `b + k x + k - 1 <= X`.
                let Some(top) = (at_most.saturating_add(1) / self.quantum).checked_sub(1) else {
                    return false;
                };
                let top = top.min(u64::from(NO_ROUTE - 1));
                let (b, k) = self.scales[group as usize].span(way);
                let byte = (top + 1)
                    .checked_sub(u64::from(b))
                    .and_then(|over| (over / u64::from(k)).checked_sub(1));
                match byte {
                    Some(x) => x.min(u64::from(NO_BYTE - 1)) as u8,
                    None => return false,
                }
            }
        };
        self.values[slot as usize][way] = x;
        true
    }

    /// The bytes of `slot`, to move them to another slot of the same group with
    /// [`Self::set_row`].
    pub(super) fn row(&self, slot: u32) -> [u8; WAYS] {
        self.values[slot as usize]
    }

    /// Sets the bytes of `slot` (from [`Self::row`] of a slot of the same group; `None`: no
    /// route either way).
    pub(super) fn set_row(&mut self, slot: u32, row: Option<[u8; WAYS]>) {
        self.values[slot as usize] = row.unwrap_or([NO_BYTE; WAYS]);
    }

    /// Grows the table to `slots` slots without routes and `groups` groups (new ones on a
    /// scale from 0 in steps of 1).
    pub(super) fn grow(&mut self, slots: usize, groups: usize) {
        if slots > self.values.len() {
            self.values.resize(slots, [NO_BYTE; WAYS]);
        }
        if groups > self.scales.len() {
            self.scales
                .resize(groups, Scale::spanning(&[(NO_ROUTE, 0); WAYS]));
        }
    }

    /// Moves every slot's bytes to `moved_to[slot]` in a table of `slots` slots, dropping
    /// those moved to `u32::MAX` (the groups stay).
    pub(super) fn move_slots(&mut self, moved_to: &[u32], slots: usize) {
        let mut values = vec![[NO_BYTE; WAYS]; slots];
        for (slot, &to) in moved_to.iter().enumerate() {
            if let (Some(row), Some(target)) = (self.values.get(slot), values.get_mut(to as usize))
            {
                *target = *row;
            }
        }
        self.values = values;
    }

    /// Numbers the groups again: group `g` becomes `renumber[g]` of `groups`, or goes when
    /// that is `u32::MAX`.
    pub(super) fn renumber_groups(&mut self, renumber: &[u32], groups: usize) {
        let mut scales = vec![Scale::spanning(&[(NO_ROUTE, 0); WAYS]); groups];
        for (scale, &to) in self.scales.iter().zip(renumber) {
            if let Some(target) = scales.get_mut(to as usize) {
                *target = *scale;
            }
        }
        self.scales = scales;
    }

    /// The bound toward a goal whose cell's portals in the slots `goal_side` (`(slot, group,
    /// rest)`) reach it at the costs `rest` (`None`: that portal does not): one constant per
    /// way. `None` without a table.
    pub(super) fn toward(
        &self,
        goal_side: &(impl Iterator<Item = (u32, u32, Option<u64>)> + Clone),
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
            for (slot, group, rest) in goal_side.clone() {
                let Some(rest) = rest else { continue };
                let Some((low, high)) = self.values(slot, group, way) else {
                    if is_from(way) {
                        // The landmark does not reach `p`: no route to the goal through it.
                        continue;
                    }
                    // A `p` that reaches the goal but not the landmark: the way bounds nothing.
                    return 0;
                };
                let rest = i128::from(rest);
                offset = Some(if is_from(way) {
                    let through = i128::from(low) * q + rest - (q - 1);
                    offset.map_or(through, |best| best.min(through))
                } else {
                    let beyond = i128::from(high) * q + q - 1 - rest;
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
            no_route: std::array::from_fn(|way| if is_from(way) { NO_ROUTE } else { 0 }),
        })
    }
}

/// A query's landmark bound: per landmark way, the constant its stored values are taken from.
#[derive(Debug, Clone, Copy)]
pub(super) struct GoalBound<const WAYS: usize> {
    quantum: u64,
    constants: [u16; WAYS],
    /// Per way, the `s` of no route.
    no_route: [u16; WAYS],
}

impl<const WAYS: usize> GoalBound<WAYS> {
    /// The bound on the cost from the portal in `slot` (in group `group`) to the goal.
    #[inline]
    pub(super) fn estimate(&self, table: &PackedLandmarks<WAYS>, slot: u32, group: u32) -> u64 {
        let (Some(values), Some(scale)) = (
            table.values.get(slot as usize),
            table.scales.get(group as usize),
        ) else {
            return 0;
        };
        // A fixed number of lanes and no branch, so this compiles to vector multiplies, adds,
        // compares and saturating subtractions (a select per lane left it scalar, 70% more
        // query instructions).
        let mut reads = [0u16; WAYS];
        for ((((read, &x), &base), &step), &none) in reads
            .iter_mut()
            .zip(values)
            .zip(&scale.base)
            .zip(&scale.step)
            .zip(&self.no_route)
        {
            let known = base.wrapping_add(u16::from(x).wrapping_mul(step));
            let unknown = 0u16.wrapping_sub(u16::from(x == NO_BYTE));
            *read = (known & !unknown) | (none & unknown);
        }
        let best = self
            .constants
            .iter()
            .zip(&reads)
            .map(|(&c, &s)| c.saturating_sub(s))
            .fold(0, u16::max);
        u64::from(best) * self.quantum
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use glam::IVec3;

    use super::{LandmarkTable, NO_ROUTE};
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
    /// and more) and packs with wide steps, every byte stands for its distance, and the bound
    /// from every node toward random goal sides is at most its true cost to the goal, and not
    /// always 0.
    #[test]
    fn quantised_bound_is_a_lower_bound_on_random_graphs() {
        const LANDMARKS: usize = 3;
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let mut quanta = Vec::new();
        let mut positive = 0;
        let mut steps = Vec::new();
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
            let mut exact = Vec::new();
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
                exact.push((from, to));
            }
            // Groups of 6 nodes, far apart in the graph: wide spans, steps well above 1.
            let groups: Vec<u32> = (0..n as u32).map(|v| v / 6).collect();
            let packed = table.pack(&groups);
            for (l, (from, to)) in exact.iter().enumerate() {
                for v in 0..n {
                    for (way, d) in [(2 * l, from[v]), (2 * l + 1, to[v])] {
                        let range = packed.range(v as u32, groups[v], way);
                        assert_eq!(range.is_some(), d.is_some(), "round {round}");
                        if let (Some((low, high)), Some(d)) = (range, d) {
                            assert!(low <= d && d <= high, "round {round}: packed");
                            steps.push(high - low + 1);
                        }
                    }
                }
            }
            quanta.push(table.quantum());
            // Goal sides: a few nodes, each reaching the goal at some cost or not at all.
            let all: Vec<_> = (0..n).map(|v| distances(n, &edges, v)).collect();
            for _ in 0..5 {
                let side: Vec<(u32, u32, Option<u64>)> = (0..4)
                    .map(|_| {
                        let p = (next(&mut state) % n as u64) as u32;
                        let rest = (!next(&mut state).is_multiple_of(4))
                            .then(|| next(&mut state) % 40_000);
                        (p, groups[p as usize], rest)
                    })
                    .collect();
                let bound = packed.toward(&side.iter().copied()).expect("a table");
                for (v, dist) in all.iter().enumerate() {
                    let truth = side
                        .iter()
                        .filter_map(|&(p, _, rest)| Some(dist[p as usize]? + rest?))
                        .min();
                    let estimate = bound.estimate(&packed, v as u32, groups[v]);
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
        // Bytes standing for many distances each (the quantum times the group's step).
        assert!(
            steps.iter().filter(|&&step| step >= 20).count() * 2 > steps.len(),
            "the bytes were mostly exact"
        );
        assert_eq!(NO_ROUTE, u16::MAX);
    }

    /// A world 4 x 4 cells wide of random terraces 4 blocks square (1 to 9 high, so cliffs
    /// climbed one way only and drops of up to 8), with random holes.
    fn random_terraces(state: &mut u64) -> NavGraph {
        let mut world = ChunkedWorld::with_size(IVec3::new(64, 14, 64)).expect("valid size");
        for bx in 0..16 {
            for bz in 0..16 {
                let top = 1 + (next(state) % 9) as i32;
                let low = IVec3::new(bx * 4, 0, bz * 4);
                world
                    .fill(low, low + IVec3::new(3, top, 3), Block::Solid)
                    .expect("inside");
                if next(state).is_multiple_of(9) {
                    world
                        .set(low + IVec3::new(1, top, 2), Block::Air)
                        .expect("inside");
                }
            }
        }
        NavGraph::compile(&world, &Agent::default()).expect("compiles")
    }

    /// On random terraces at costs that spread a cell's landmark distances over hundreds of
    /// units (most cells' bytes then stand for several distances each, some for dozens, and
    /// costs past 16 bits quantise), the packed bound from every portal toward random goal
    /// cells and costs to the goal is at most the exact abstract route cost (a Dijkstra
    /// over the abstraction's edges), and mostly within a few steps of it: reading the lower
    /// end where the upper belongs (or the reverse) fails here.
    #[test]
    fn packed_bound_never_exceeds_the_abstract_distance_on_random_worlds() {
        let mut state = 0x1234_5678_9abc_def1;
        let (mut checked, mut tight, mut coarse) = (0, 0, 0);
        for round in 0..6 {
            let graph = random_terraces(&mut state);
            let scale: u32 = if round % 3 == 2 { 40 } else { 4 };
            let costs = MoveCosts {
                straight: 10 * scale,
                diagonal: 14 * scale,
                corner: 17 * scale,
                ascend: 25 * scale,
                descend: scale,
                ..MoveCosts::default()
            };
            let hpa = Abstraction::build(&graph, &costs).expect("builds");
            let slots = hpa.slot_cell.len();
            let mut into = vec![Vec::new(); slots];
            for slot in 0..slots as u32 {
                hpa.for_each_edge(slot, true, |next, cost| {
                    into[next as usize].push((slot, u64::from(cost)));
                });
            }
            let table = &hpa.landmarks;
            for (slot, &cell) in hpa.slot_cell.iter().enumerate() {
                for way in 0..super::super::landmarks::LANDMARK_WAYS {
                    if let Some((low, high)) = table.range(slot as u32, cell, way) {
                        coarse += usize::from(high - low >= 2 * table.quantum());
                    }
                }
            }
            for _ in 0..8 {
                let goal_cell = (next(&mut state) % hpa.cells.len() as u64) as u32;
                let cell = &hpa.cells[goal_cell as usize];
                let side: Vec<(u32, u32, Option<u64>)> = (0..cell.portals.len() as u32)
                    .map(|local| {
                        let rest = (!next(&mut state).is_multiple_of(3))
                            .then(|| next(&mut state) % u64::from(30 * scale));
                        (cell.base + local, goal_cell, rest)
                    })
                    .collect();
                // The exact cost from every slot to the goal: Dijkstra backwards from the
                // goal side, each portal starting at its cost to the goal.
                let mut exact = vec![u64::MAX; slots];
                let mut heap = BinaryHeap::new();
                for &(slot, _, rest) in &side {
                    if let Some(rest) = rest {
                        exact[slot as usize] = exact[slot as usize].min(rest);
                        heap.push(Reverse((rest, slot)));
                    }
                }
                while let Some(Reverse((d, slot))) = heap.pop() {
                    if d > exact[slot as usize] {
                        continue;
                    }
                    for &(from, cost) in &into[slot as usize] {
                        if d + cost < exact[from as usize] {
                            exact[from as usize] = d + cost;
                            heap.push(Reverse((d + cost, from)));
                        }
                    }
                }
                let bound = table.toward(&side.iter().copied()).expect("a table");
                for (slot, &truth) in exact.iter().enumerate() {
                    if truth == u64::MAX {
                        continue;
                    }
                    let estimate = bound.estimate(table, slot as u32, hpa.slot_cell[slot]);
                    assert!(
                        estimate <= truth,
                        "round {round}: slot {slot} bound {estimate} > {truth}"
                    );
                    checked += 1;
                    tight += usize::from(truth - estimate <= u64::from(20 * scale));
                }
            }
        }
        assert!(checked > 2_000, "{checked} bounds checked only");
        assert!(
            tight * 4 > checked,
            "{tight} of {checked} bounds within 2 steps"
        );
        assert!(
            coarse > 1_000,
            "{coarse} bytes stood for several distances only"
        );
    }
}
