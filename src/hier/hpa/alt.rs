//! The landmark bound of the abstract search (ALT, Goldberg and Harrelson 2005), as stored and
//! as asked per query: the distances to and from every landmark, one byte per slot and way on
//! a per-cell scale ([`PackedLandmarks`]) for about half the slots, the others derived from a
//! partner's, and per query one constant per landmark way, so that a portal's bound is a
//! maximum of saturating 16-bit differences (a few vector instructions).
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
//! **Derived slots keep no bytes.** About half the portals take their bound from a partner:
//! the source `a` of a transition `a -> b` of cost `c` into the derived `b`, `a` keeping its
//! values. Any route from `a` to the goal may start with that transition, so
//! `d(a, goal) <= c + d(b, goal)`, and with `h(a) <= d(a, goal)`, `h(b) = max(0, h(a) - c)` is
//! a lower bound too. Way by way it is the same: the *from* bound subtracts `d(L, b)`, and
//! `d(L, b) <= d(L, a) + c` (an upper bound, as it needs); the *to* bound adds `d(b, L)`, and
//! `d(b, L) >= d(a, L) - c` (a lower bound, as it needs). The edge must lead *into* `b`: one
//! out of `b` gives the opposite inequalities. The cost is kept as a lift in quanta rounded
//! up (8 bits beside the partner's slot in a 32-bit link per slot), so
//! `(best - lift) q <= h(a) - c`. A derived portal on the goal side bounds `d(L, p)` from
//! below by its edges out (`d(L, x) - cost`) and by the transitions into it (`d(L, u) +
//! cost`: with costs to the goal found by a search inside the goal's cell, a route from the
//! landmark enters that cell for the last time by a transition, or starts at the landmark's
//! own slot, kept stored), and `d(p, L)` from above by its edges out (`cost + d(x, L)`).
//! Partners are chosen over the transitions cheapest first (the target of one whose source
//! is not derived); at 2048, 49.5% of the portals are derived.
//!
//! Two bytes per slot and way (a global quantum only) took 38.0 MB at 2048, as much as the rest
//! of the abstraction; one byte on a global quantum (`q` near 250) cost 57% more query
//! instructions; the per-cell scale costs 160 bytes per cell (2.6 MB at 2048). A byte per
//! slot and way took 21.6 MB at 2048; with derived slots (a link of 4 bytes per slot, 40
//! bytes per stored one) 14.1 MB, the abstraction 44.8 MB against 52.3 MB (57% of the walk
//! graph against 67%), for 9.7% more expansions at 2048 (9 886 against 9 015, `long`, 200
//! pairs) and, at 1024, 1.9% more (5 836 against 5 727) and 6.6% more query instructions
//! (115.7 M against 108.6 M, callgrind `--toggle-collect='*timed_hpa*' --size 1024 --pairs
//! 20 --edits 0 --weight 1`): a derived bound is tight when the route leads from the partner
//! on, and about two moves loose when it leads back across.
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

    /// The table packed to a byte per stored slot and way, on a scale per group of slots
    /// (`groups[slot]` the slot's group, numbered from 0: the abstraction's cells). A slot
    /// with `partners[slot] = Some((partner, cost))`, an abstract edge into it from `partner`
    /// of that cost (`partner` itself without one), keeps no bytes when the link fits (see
    /// [`DERIVED`]): its bound is derived from the partner's (see the [module docs](self)).
    pub(super) fn pack(
        &self,
        groups: &[u32],
        partners: &[Option<(u32, u32)>],
    ) -> PackedLandmarks<WAYS> {
        let count = groups
            .iter()
            .map(|&group| group as usize + 1)
            .max()
            .unwrap_or(0);
        let mut links = Vec::with_capacity(self.values.len());
        let mut stored = Vec::new();
        for slot in 0..self.values.len() {
            // A landmark's own slot (0 from it) stays stored: the goal side's bound of a
            // derived portal leaves the route that starts there out.
            let landmark = self.values[slot].iter().step_by(2).any(|&x| x == 0);
            let derived = partners
                .get(slot)
                .copied()
                .flatten()
                .filter(|_| !landmark)
                .and_then(|(partner, cost)| link_to(partner, u64::from(cost), self.quantum));
            links.push(derived.unwrap_or_else(|| {
                stored.push(slot);
                // Rows are fewer than slots, and slots fit 32 bits with room for the flag.
                (stored.len() - 1) as u32
            }));
        }
        // Per group and way, the lowest and highest value of the stored slots.
        let mut spans = vec![[(NO_ROUTE, 0u16); WAYS]; count];
        for &slot in &stored {
            for (span, &x) in spans[groups[slot] as usize]
                .iter_mut()
                .zip(&self.values[slot])
            {
                if x != NO_ROUTE {
                    *span = (span.0.min(x), span.1.max(x));
                }
            }
        }
        let scales: Vec<Scale<WAYS>> = spans.iter().map(Scale::spanning).collect();
        let rows = stored
            .iter()
            .map(|&slot| {
                let scale = &scales[groups[slot] as usize];
                std::array::from_fn(|way| {
                    let x = self.values[slot][way];
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
            links,
            rows,
            scales,
        }
    }
}

/// The flag of a derived slot's link: below it a stored slot's link is its row; with it,
/// the partner's slot in the next 23 bits and the lift (the partner edge's cost in quanta,
/// rounded up) in the low 8. A slot whose partner would not fit stays stored.
const DERIVED: u32 = 1 << 31;

/// The partner field of a link with no partner: a slot no portal holds (or none that is
/// derived any longer; its bound is 0).
const NO_PARTNER: u32 = (1 << 23) - 1;

/// The link of a slot without values or partner.
const UNUSED: u32 = DERIVED | NO_PARTNER << 8;

/// Whether `link` is a stored slot's (its row).
pub(super) fn is_row(link: u32) -> bool {
    link & DERIVED == 0
}

/// A derived slot's link to `partner` over an edge of `cost` at quantum `quantum`, if it fits.
fn link_to(partner: u32, cost: u64, quantum: u64) -> Option<u32> {
    let lift = cost.div_ceil(quantum);
    (partner < NO_PARTNER && lift <= 0xff).then_some(DERIVED | partner << 8 | lift as u32)
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

/// The landmark distances of the overlay slots the abstraction keeps: per stored slot a byte
/// per way on its group's (cell's) scale, per derived slot its partner and lift (see the
/// [module docs](self)).
#[derive(Debug, Clone, Default)]
pub(super) struct PackedLandmarks<const WAYS: usize> {
    quantum: u64,
    /// Per slot, a stored slot's row in `rows`, or a derived slot's link (see [`DERIVED`]).
    links: Vec<u32>,
    rows: Vec<[u8; WAYS]>,
    scales: Vec<Scale<WAYS>>,
}

impl<const WAYS: usize> PackedLandmarks<WAYS> {
    /// Whether there is no table (never computed, or dropped as stale).
    pub(super) fn is_empty(&self) -> bool {
        self.links.is_empty()
    }

    /// The bytes the table holds.
    pub(super) fn memory_bytes(&self) -> usize {
        self.links.capacity() * 4
            + self.rows.capacity() * WAYS
            + self.scales.capacity() * std::mem::size_of::<Scale<WAYS>>()
    }

    /// Whether `slot` keeps values of its own (else its bound is derived from a partner's).
    #[inline]
    pub(super) fn is_stored(&self, slot: u32) -> bool {
        self.links
            .get(slot as usize)
            .is_some_and(|&link| link & DERIVED == 0)
    }

    /// A derived slot's partner and the cost its lift stands for: `h(slot) >= h(partner) -
    /// cost`, there being an edge from the partner of at most that cost into the slot.
    pub(super) fn partner(&self, slot: u32) -> Option<(u32, u64)> {
        let link = *self.links.get(slot as usize)?;
        let partner = (link & !DERIVED) >> 8;
        (link & DERIVED != 0 && partner != NO_PARTNER)
            .then(|| (partner, u64::from(link & 0xff) * self.quantum))
    }

    /// Derives `slot`'s bound from `partner`'s (stored) over an edge of `cost` into it;
    /// false, changing nothing, when the link does not fit.
    pub(super) fn derive(&mut self, slot: u32, partner: u32, cost: u32) -> bool {
        match link_to(partner, u64::from(cost), self.quantum) {
            Some(link) => {
                self.links[slot as usize] = link;
                true
            }
            None => false,
        }
    }

    /// The 16-bit values way `way` of the stored `slot` (in group `group`) can stand for,
    /// `[low, high]` (`None` for no route, or for a slot not stored).
    #[inline]
    fn values(&self, slot: u32, group: u32, way: usize) -> Option<(u16, u16)> {
        let link = *self.links.get(slot as usize)?;
        let x = self.rows.get(link as usize)?[way];
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

    /// The distances way `way` of the stored `slot` (in group `group`) can stand for, `[low,
    /// high]` (`None` for no route; see [`Self::is_stored`]).
    #[inline]
    pub(super) fn range(&self, slot: u32, group: u32, way: usize) -> Option<(u64, u64)> {
        self.values(slot, group, way).map(|(low, high)| {
            let q = self.quantum;
            (u64::from(low) * q, u64::from(high) * q + q - 1)
        })
    }

    /// Visits, for each way of `direction` (ways `direction`, `direction + 2`, ...), the
    /// landmark's index and the distances the stored `slot` (in group `group`) can stand for,
    /// as [`Self::range`] gives them: the slot's row and scale read once, not once per way
    /// (the update's checks read a slot's ways together: 200 edits at 1024, `long --size
    /// 1024 --pairs 1 --edits 200 --refresh-landmarks`, callgrind on `'*Abstraction*update*'`).
    #[inline]
    pub(super) fn for_each_range(
        &self,
        slot: u32,
        group: u32,
        direction: usize,
        mut visit: impl FnMut(usize, Option<(u64, u64)>),
    ) {
        let row = self
            .links
            .get(slot as usize)
            .and_then(|&link| self.rows.get(link as usize));
        let scale = &self.scales[group as usize];
        let q = self.quantum;
        for (landmark, way) in (direction..WAYS).step_by(2).enumerate() {
            let range = row.and_then(|row| {
                let x = row[way];
                (x != NO_BYTE).then(|| {
                    let (b, k) = scale.span(way);
                    let low = b + k * u16::from(x);
                    (u64::from(low) * q, u64::from(low + (k - 1)) * q + q - 1)
                })
            });
            visit(landmark, range);
        }
    }

    /// Gives way `way` of the stored `slot` (in group `group`) the highest byte whose
    /// distances all lie at or below `at_most` (`None`: no route); false, storing nothing,
    /// when none does on the group's scale (the scales and the quantum never change here).
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
        let row = self.links[slot as usize] as usize;
        match self.rows.get_mut(row) {
            Some(row) if self.links[slot as usize] & DERIVED == 0 => {
                row[way] = x;
                true
            }
            _ => false,
        }
    }

    /// The link of `slot`, to move it to another slot of the same group with
    /// [`Self::set_link`] (a stored slot's row goes with it).
    pub(super) fn link(&self, slot: u32) -> u32 {
        self.links[slot as usize]
    }

    /// Sets the link of `slot` (from [`Self::link`] of a slot of the same group).
    pub(super) fn set_link(&mut self, slot: u32, link: u32) {
        self.links[slot as usize] = link;
    }

    /// Leaves `slot` without values or partner (a slot no portal holds any longer).
    pub(super) fn forget(&mut self, slot: u32) {
        self.links[slot as usize] = UNUSED;
    }

    /// Gives `slot` values of its own, no route either way until stored, in a row of
    /// `spare` (rows of the slot's group that no slot holds any longer) or a new one.
    pub(super) fn store_new(&mut self, slot: u32, spare: &mut Vec<u32>) {
        let row = spare.pop().unwrap_or_else(|| {
            self.rows.push([NO_BYTE; WAYS]);
            // Rows are fewer than slots.
            (self.rows.len() - 1) as u32
        });
        self.rows[row as usize] = [NO_BYTE; WAYS];
        self.links[slot as usize] = row;
    }

    /// Grows the table to `slots` slots without values and `groups` groups (new ones on a
    /// scale from 0 in steps of 1).
    pub(super) fn grow(&mut self, slots: usize, groups: usize) {
        if slots > self.links.len() {
            self.links.resize(slots, UNUSED);
        }
        if groups > self.scales.len() {
            self.scales
                .resize(groups, Scale::spanning(&[(NO_ROUTE, 0); WAYS]));
        }
    }

    /// Moves every slot's link to `moved_to[slot]` in a table of `slots` slots, dropping
    /// those moved to `u32::MAX` with their rows, and partners with them (the groups stay).
    pub(super) fn move_slots(&mut self, moved_to: &[u32], slots: usize) {
        let mut links = vec![UNUSED; slots];
        let mut rows = Vec::new();
        for (slot, &to) in moved_to.iter().enumerate() {
            let (Some(&link), Some(target)) = (self.links.get(slot), links.get_mut(to as usize))
            else {
                continue;
            };
            if link & DERIVED == 0 {
                if let Some(row) = self.rows.get(link as usize) {
                    rows.push(*row);
                    *target = (rows.len() - 1) as u32;
                }
            } else {
                let partner = (link & !DERIVED) >> 8;
                let moved = moved_to.get(partner as usize).copied().unwrap_or(u32::MAX);
                if moved < NO_PARTNER {
                    *target = DERIVED | moved << 8 | (link & 0xff);
                }
            }
        }
        rows.shrink_to_fit();
        self.links = links;
        self.rows = rows;
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
}

/// The 16-bit lanes [`GoalBound::estimate`] works in: one SSE register.
const LANES: usize = 8;

/// A query's landmark bound: per landmark way, the constant its stored values are taken from.
#[derive(Debug, Clone, Copy)]
pub(super) struct GoalBound<const WAYS: usize> {
    quantum: u64,
    constants: [u16; WAYS],
    /// Per way, the `s` of no route.
    no_route: [u16; WAYS],
}

impl<const WAYS: usize> GoalBound<WAYS> {
    /// The bound on the cost from the portal in `slot` to the goal (`groups[slot]` the
    /// slot's group): from its own values, or from its partner's less the lift.
    #[inline]
    pub(super) fn estimate(&self, table: &PackedLandmarks<WAYS>, slot: u32, groups: &[u32]) -> u64 {
        let Some(&link) = table.links.get(slot as usize) else {
            return 0;
        };
        // A stored slot reads its own row, a derived one its partner's, less the lift.
        let derived = link & DERIVED != 0;
        let owner = if derived {
            (link & !DERIVED) >> 8
        } else {
            slot
        };
        let lift = if derived { (link & 0xff) as u16 } else { 0 };
        let (Some(&row), Some(&group)) =
            (table.links.get(owner as usize), groups.get(owner as usize))
        else {
            return 0;
        };
        // A partner's link is its row (a derived slot's is far past the rows); no partner
        // bounds nothing.
        let (Some(values), Some(scale), true) = (
            table.rows.get(row as usize),
            table.scales.get(group as usize),
            owner != NO_PARTNER,
        ) else {
            return 0;
        };
        // Fixed-size lanes and no branch, so this compiles to vector multiplies, adds,
        // compares, saturating subtractions and maxima (a select per lane left it scalar, 70%
        // more query instructions). The maxima kept per lane and folded once: 141
        // instructions per estimate against 154 with the readings stored first and folded
        // over all the ways (`HIER_ENGINE=hpa valgrind --tool=callgrind
        // --toggle-collect='*timed_hpa*' long --size 1024 --pairs 20 --edits 0 --weight 1`:
        // the 20 queries 103.98 M to 102.83 M).
        let mut lanes = [0u16; LANES];
        let read = |best: &mut u16, x: u8, base: u16, step: u16, none: u16, c: u16| {
            let known = base.wrapping_add(u16::from(x).wrapping_mul(step));
            let unknown = 0u16.wrapping_sub(u16::from(x == NO_BYTE));
            let s = (known & !unknown) | (none & unknown);
            *best = (*best).max(c.saturating_sub(s));
        };
        let (xs, x_rest) = values.as_chunks::<LANES>();
        let (bases, base_rest) = scale.base.as_chunks::<LANES>();
        let (steps, step_rest) = scale.step.as_chunks::<LANES>();
        let (nones, none_rest) = self.no_route.as_chunks::<LANES>();
        let (cs, c_rest) = self.constants.as_chunks::<LANES>();
        for ((((x, base), step), none), c) in xs.iter().zip(bases).zip(steps).zip(nones).zip(cs) {
            for lane in 0..LANES {
                read(
                    &mut lanes[lane],
                    x[lane],
                    base[lane],
                    step[lane],
                    none[lane],
                    c[lane],
                );
            }
        }
        for ((((&x, &base), &step), &none), &c) in x_rest
            .iter()
            .zip(base_rest)
            .zip(step_rest)
            .zip(none_rest)
            .zip(c_rest)
        {
            read(&mut lanes[0], x, base, step, none, c);
        }
        let best = lanes.into_iter().fold(0, u16::max);
        u64::from(best.saturating_sub(lift)) * self.quantum
    }
}

mod goal;
#[cfg(test)]
mod tests;
