//! The checks at derived portals through an update: their partners found again, and
//! Bellman's condition on the edges at them (see the [parent module](super)).
//!
//! A derived portal keeps no values; the bound proof only needs values for it to exist that
//! meet Bellman's condition on every edge. Per way, the largest candidate is `F(b)`, the
//! cheapest route into it (from-way; out of it, to-way) from a stored portal through
//! derived ones only, the stored values taken as they are: it meets the condition on every
//! edge toward `b` by definition, so only the edges from `b` to stored portals can fail.
//! An update may lower `F` only along new or cheaper edges: from such an edge's far end on,
//! over derived portals, each value reached is checked against the stored far ends of its
//! edges (label-correcting, all the ways of one direction at once, inside a cell or two).
//! Values are read as ranges: a lower end for what `F` is made of, an upper end for what it
//! must bound. A derived portal at the near end of such an edge enters with a lower bound
//! on its `F` ([`Abstraction::lower`]), as do derived neighbours of new portals valued from
//! their edges.
//!
//! Per block edit this costs 9.4% more update instructions at 1024 (callgrind
//! `--toggle-collect='*Abstraction*update*'`, `long --size 1024 --pairs 1 --edits 200`:
//! 408.9 M against 373.9 M with every slot stored; the landmarks kept through the first 11
//! edits against 9); a check per way, each portal's lower bound computed again per way,
//! took 498.2 M.
//!
//! The edges an update checks are gathered first and their values spread once per derived
//! far end and direction ([`Abstraction::edges_hold`]): an edit that makes many in-cell
//! routes cheaper sent each into the same portals again. 200 edits at 1024, landmarks
//! current (`long --size 1024 --pairs 1 --edits 200 --refresh-landmarks`, callgrind on
//! `'*Abstraction*update*'`): 510.4 M instructions, 482.9 M with a slot's ways read
//! together and the lists per cell and per spread kept in one allocation, 438.3 M with one
//! spread per far end; the same 22 edits drop the landmarks. Per edit, p90 5.78 M to
//! 4.34 M, p99 20.0 M to 10.1 M; the median edit (1.44 M) checks no edge at all: 88% of
//! it is the cell's derivation (`cell.rs`).

use super::super::Abstraction;
use super::super::blocks::HpaCell;
use super::super::landmarks::LANDMARKS;

/// The most derived portals one lowered value is followed to (see
/// [`Abstraction::lowered_hold`]) before the check gives up and the landmarks are dropped.
/// Unbounded, a few checks spread over thousands of portals: at 1024 (`long --size 1024
/// --edits 200 --refresh-landmarks`, callgrind on `Abstraction::update`) the 200 edits took
/// 2.08 G instructions, 1.30 G of them these checks.
const LOWERED_REACH: usize = 64;

/// One cell's edges as the checks at its derived portals read them.
pub(super) struct Around {
    base: u32,
    count: usize,
    /// `table[from * count + to]`: the in-cell edge's cost.
    table: Vec<Option<u64>>,
    /// Per portal, the transitions into it and out of it, `(other slot, cost)`.
    into: Arrivals,
    out: Arrivals,
}

/// Per portal of one cell, a list of abstract edges, `(other slot, cost)`: one list after
/// the other in one vector, rather than a vector per portal (an allocation each, for every
/// cell an update's checks read).
#[derive(Default)]
pub(in crate::hier::hpa) struct Arrivals {
    /// Portal `local`'s edges are `edges[first[local]..first[local + 1]]`.
    first: Vec<u32>,
    edges: Vec<(u32, u64)>,
}

impl Arrivals {
    /// Portal `local`'s edges.
    pub(in crate::hier::hpa) fn of(&self, local: usize) -> &[(u32, u64)] {
        &self.edges[self.first[local] as usize..self.first[local + 1] as usize]
    }
}

/// A value per landmark of one direction (way `2 l + direction`), [`NONE`] for no route:
/// plain words, so that the checks' per-way loops are a min and a saturating add. With an
/// `Option` per way in arrays of all 40 ways, the checks took 192.5 M of the 656.5 M
/// instructions of 200 edits (`long --size 1024 --edits 200 --refresh-landmarks`, callgrind
/// on `Abstraction::update`); 110.7 M of 576.2 M so.
type Half = [u64; LANDMARKS];

/// Per direction (0: the from-ways, 1: the to-ways), a value per landmark.
type Ways = [Half; 2];

/// No route: above every value, and kept by a saturating add.
pub(super) const NONE: u64 = u64::MAX;

/// What an update's checks have read so far: the cells' [`Around`]s, and the derived
/// portals' lower bounds ([`Abstraction::lower`]).
#[derive(Default)]
pub(super) struct Arounds {
    cells: Vec<(usize, Around)>,
    lowers: Vec<(u32, Ways)>,
    /// [`Abstraction::lowered_hold`]'s lists, kept for their allocations between its calls.
    best: Vec<(u32, Half)>,
    pending: Vec<u32>,
    far: Vec<(u32, u64)>,
}

impl Arounds {
    /// Forgets the lower bounds, after stored values changed.
    pub(super) fn values_changed(&mut self) {
        self.lowers.clear();
    }
}

/// How a spread of lowered values from derived portals ([`Abstraction::lowered_hold`]) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spread {
    /// Every stored portal reached still bounds its values.
    Holds,
    /// One does not.
    Fails,
    /// It reached more derived portals than [`LOWERED_REACH`], or went over them too often.
    GaveUp,
}

/// `values` each plus `cost` ([`NONE`] staying so).
#[inline]
fn plus(values: &Half, cost: u64) -> Half {
    values.map(|value| value.saturating_add(cost))
}

/// Lowers each of `into` to the matching one of `values`; whether any lowered.
#[inline]
fn lower_to(into: &mut Half, values: &Half) -> bool {
    let mut lowered = false;
    for (into, &value) in into.iter_mut().zip(values) {
        lowered |= value < *into;
        *into = (*into).min(value);
    }
    lowered
}

impl Abstraction {
    /// [`Around`] of cell `index`, made once per update.
    fn around<'a>(&self, index: usize, arounds: &'a mut Arounds) -> &'a Around {
        let at = match arounds.cells.iter().position(|(cell, _)| *cell == index) {
            Some(at) => at,
            None => {
                let cell = &self.cells[index];
                let count = cell.portals.len();
                let mut table = vec![None; count * count];
                for from in 0..count {
                    cell.for_each_in_row(from, |to, cost| {
                        table[from * count + to] = Some(u64::from(cost));
                    });
                }
                let mut out = Arrivals::default();
                for local in 0..count {
                    out.first.push(out.edges.len() as u32);
                    self.for_each_edge(cell.base + local as u32, false, |to, cost| {
                        out.edges.push((to, u64::from(cost)));
                    });
                }
                out.first.push(out.edges.len() as u32);
                let around = Around {
                    base: cell.base,
                    count,
                    table,
                    into: self.arrivals(index),
                    out,
                };
                arounds.cells.push((index, around));
                arounds.cells.len() - 1
            }
        };
        &arounds.cells[at].1
    }

    /// Visits the edges into the portal in `slot` (`into`) or out of it, `(other slot,
    /// cost)`.
    fn for_each_edge_at(
        &self,
        slot: u32,
        into: bool,
        arounds: &mut Arounds,
        mut visit: impl FnMut(u32, u64),
    ) {
        let Some((_, local)) = self.slot_portal(slot) else {
            return;
        };
        let around = self.around(self.slot_cell[slot as usize] as usize, arounds);
        let count = around.count;
        for other in (0..count).filter(|&other| other != local) {
            let entry = if into {
                around.table[other * count + local]
            } else {
                around.table[local * count + other]
            };
            if let Some(cost) = entry {
                visit(around.base + other as u32, cost);
            }
        }
        let moves = if into {
            around.into.of(local)
        } else {
            around.out.of(local)
        };
        for &(other, cost) in moves {
            visit(other, cost);
        }
    }

    /// The lower ends of the distances the stored `slot` stands for on the ways of
    /// `direction`, each plus `cost` ([`NONE`]: no route).
    fn lows(&self, slot: u32, direction: usize, cost: u64) -> Half {
        let mut lows = [NONE; LANDMARKS];
        let group = self.slot_cell[slot as usize];
        self.landmarks
            .for_each_range(slot, group, direction, |landmark, range| {
                if let Some((low, _)) = range {
                    lows[landmark] = low + cost;
                }
            });
        lows
    }

    /// Per way, a lower bound on `F` of the derived `slot` (see the [module docs](self)),
    /// [`NONE`] when no near edge comes from a reached portal: over its near edges (into it on
    /// a from-way, out of it on a to-way), a stored neighbour's lower end, a derived one's
    /// near transitions (its near in-cell edges are the slot's own, in-cell costs being
    /// shortest routes), or 0. Kept in `arounds` until [`Arounds::values_changed`].
    pub(super) fn lower(&self, slot: u32, arounds: &mut Arounds) -> Ways {
        if let Some(&(_, known)) = arounds.lowers.iter().find(|(seen, _)| *seen == slot) {
            return known;
        }
        let mut lower: Ways = [[NONE; LANDMARKS]; 2];
        let own = self.slot_cell[slot as usize];
        // One list of each for both directions and every neighbour, kept for its allocation.
        let (mut near, mut moves) = (Vec::new(), Vec::new());
        for (direction, into) in [(0, true), (1, false)] {
            near.clear();
            self.for_each_edge_at(slot, into, arounds, |other, cost| near.push((other, cost)));
            for &(other, cost) in &near {
                let through = if self.landmarks.is_stored(other) {
                    self.lows(other, direction, cost)
                } else if self.slot_cell[other as usize] != own {
                    [cost; LANDMARKS]
                } else {
                    moves.clear();
                    self.for_each_edge_at(other, into, arounds, |next, step| {
                        if self.slot_cell[next as usize] != own {
                            moves.push((next, step));
                        }
                    });
                    let mut through = [NONE; LANDMARKS];
                    for &(next, step) in &moves {
                        let value = if self.landmarks.is_stored(next) {
                            self.lows(next, direction, step + cost)
                        } else {
                            [step + cost; LANDMARKS]
                        };
                        lower_to(&mut through, &value);
                    }
                    through
                };
                lower_to(&mut lower[direction], &through);
            }
        }
        arounds.lowers.push((slot, lower));
        lower
    }

    /// Whether Bellman's condition can hold on every edge `u -> w` of `cost` of `edges`, each
    /// new or cheaper than before, with either end derived or neither (see the
    /// [module docs](self)).
    ///
    /// The values an edge brings to a derived far end are spread from there once per far end
    /// and direction, at the lowest of its edges' values way by way: a spread holds at those
    /// exactly when it holds at each edge's (the ways are independent, and lower values only
    /// reach further). Per edge, the in-cell edges cheaper after an edit that share a far end
    /// each spread again over the same portals. A shared spread that gives up (see
    /// [`LOWERED_REACH`]) goes again edge by edge, so that the landmarks stay where they
    /// stayed before.
    pub(super) fn edges_hold(&self, edges: &[(u32, u32, u32)], arounds: &mut Arounds) -> bool {
        // Per derived far end and direction, the lowest values its edges bring; and each
        // edge's own, for a spread that gives up.
        let mut spreads: Vec<(u32, usize, Half)> = Vec::new();
        let mut starts: Vec<(usize, Half)> = Vec::new();
        for &(u, w, cost) in edges {
            let (u_stored, w_stored) = (self.landmarks.is_stored(u), self.landmarks.is_stored(w));
            if u_stored && w_stored {
                if !self.bellman(u, w, cost) {
                    return false;
                }
                continue;
            }
            let cost = u64::from(cost);
            for direction in 0..2 {
                // From-ways run along the edge, to-ways against it.
                let ((near, near_stored), (far, far_stored)) = if direction == 0 {
                    ((u, u_stored), (w, w_stored))
                } else {
                    ((w, w_stored), (u, u_stored))
                };
                let start = if near_stored {
                    self.lows(near, direction, cost)
                } else {
                    plus(&self.lower(near, arounds)[direction], cost)
                };
                if far_stored {
                    if !self.allows(far, direction, &start) {
                        return false;
                    }
                    continue;
                }
                let at = match spreads
                    .iter()
                    .position(|&(slot, way, _)| slot == far && way == direction)
                {
                    Some(at) => {
                        lower_to(&mut spreads[at].2, &start);
                        at
                    }
                    None => {
                        spreads.push((far, direction, start));
                        spreads.len() - 1
                    }
                };
                starts.push((at, start));
            }
        }
        for (at, &(far, direction, values)) in spreads.iter().enumerate() {
            match self.lowered_hold(far, &values, direction, arounds) {
                Spread::Holds => {}
                Spread::Fails => return false,
                Spread::GaveUp => {
                    for (_, start) in starts.iter().filter(|(spread, _)| *spread == at) {
                        if self.lowered_hold(far, start, direction, arounds) != Spread::Holds {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Whether the stored `slot`'s distances on each way of `direction` are at most the
    /// matching one of `values` ([`NONE`]: any).
    fn allows(&self, slot: u32, direction: usize, values: &Half) -> bool {
        let group = self.slot_cell[slot as usize];
        let mut allowed = true;
        self.landmarks
            .for_each_range(slot, group, direction, |landmark, range| {
                let value = values[landmark];
                allowed &= value == NONE || range.is_some_and(|(_, high)| high <= value);
            });
        allowed
    }

    /// Whether the derived `slot`'s `F` lowered to `values` on the ways of `direction`, and
    /// the derived portals' beyond it along far edges, still bound the stored far ends of
    /// their edges (label-correcting: a portal goes again when any way lowers).
    fn lowered_hold(
        &self,
        slot: u32,
        values: &Half,
        direction: usize,
        arounds: &mut Arounds,
    ) -> Spread {
        // The lists of earlier calls, for their allocations: fresh ones grew again in every
        // call. One list for every portal's far edges likewise (a fresh one per portal: 200
        // edits at 1024, as for [`Half`], 561.1 M instructions against 549.9 M).
        let mut best = std::mem::take(&mut arounds.best);
        let mut pending = std::mem::take(&mut arounds.pending);
        let mut far = std::mem::take(&mut arounds.far);
        best.clear();
        best.push((slot, *values));
        pending.clear();
        pending.push(slot);
        let holds = self.spread_holds(direction, arounds, &mut best, &mut pending, &mut far);
        arounds.best = best;
        arounds.pending = pending;
        arounds.far = far;
        holds
    }

    /// [`Abstraction::lowered_hold`]'s label-correcting spread from the portals `pending`,
    /// their values in `best`.
    fn spread_holds(
        &self,
        direction: usize,
        arounds: &mut Arounds,
        best: &mut Vec<(u32, Half)>,
        pending: &mut Vec<u32>,
        far: &mut Vec<(u32, u64)>,
    ) -> Spread {
        let mut pops = 0;
        while let Some(slot) = pending.pop() {
            // Label-correcting goes again over lowered portals: bounded too.
            pops += 1;
            if pops > 8 * LOWERED_REACH {
                return Spread::GaveUp;
            }
            let Some(&(_, values)) = best.iter().find(|(seen, _)| *seen == slot) else {
                continue;
            };
            far.clear();
            // Far edges lead out of the portal on a from-way, into it on a to-way.
            self.for_each_edge_at(slot, direction == 1, arounds, |other, cost| {
                far.push((other, cost));
            });
            for &(other, cost) in far.iter() {
                let reached = plus(&values, cost);
                if self.landmarks.is_stored(other) {
                    if !self.allows(other, direction, &reached) {
                        return Spread::Fails;
                    }
                    continue;
                }
                let known = match best.iter().position(|(seen, _)| *seen == other) {
                    Some(at) => at,
                    // A check that spreads too far gives up: dropping the landmarks is
                    // always sound, and an unbounded spread cost milliseconds per edit.
                    None if best.len() >= LOWERED_REACH => return Spread::GaveUp,
                    None => {
                        best.push((other, [NONE; LANDMARKS]));
                        best.len() - 1
                    }
                };
                if lower_to(&mut best[known].1, &reached) {
                    pending.push(other);
                }
            }
        }
        Spread::Holds
    }

    /// Gives every derived portal of the cells around `derived_before`'s and `resolved`'s
    /// (where a transition may have gone, got dearer or moved) a partner again: its own if
    /// that still has a transition into it no dearer than its lift, else the cheapest stored
    /// source of a transition into it whose link fits. A portal with none keeps values of
    /// its own from then on, valued as a new one (added to `fresh`).
    pub(super) fn find_partners(
        &mut self,
        derived_before: &[(usize, HpaCell)],
        resolved: &[usize],
        fresh: &mut Vec<u32>,
    ) {
        let mut around: Vec<usize> = Vec::new();
        for index in derived_before
            .iter()
            .map(|(index, _)| *index)
            .chain(resolved.iter().copied())
        {
            around.extend(self.cells_around(self.cells[index].chunk));
        }
        around.sort_unstable();
        around.dedup();
        for index in around {
            let cell = &self.cells[index];
            let slots = cell.base..cell.base + cell.portals.len() as u32;
            if slots.clone().all(|slot| self.landmarks.is_stored(slot)) {
                continue;
            }
            let into = self.arrivals(index);
            for (local, slot) in slots.enumerate() {
                if self.landmarks.is_stored(slot) {
                    continue;
                }
                let kept = self.landmarks.partner(slot).is_some_and(|(partner, lift)| {
                    self.landmarks.is_stored(partner)
                        && into
                            .of(local)
                            .iter()
                            .any(|&(from, cost)| from == partner && cost <= lift)
                });
                if kept {
                    continue;
                }
                let mut sources: Vec<(u64, u32)> = into
                    .of(local)
                    .iter()
                    .filter(|&&(from, _)| self.landmarks.is_stored(from))
                    .map(|&(from, cost)| (cost, from))
                    .collect();
                sources.sort_unstable();
                // Transition costs are 32-bit.
                let derived = sources
                    .iter()
                    .any(|&(cost, from)| self.landmarks.derive(slot, from, cost as u32));
                if !derived {
                    self.landmarks.store_new(slot, &mut Vec::new());
                    fresh.push(slot);
                }
            }
        }
    }

    /// The transitions into each portal of cell `index`, `(source slot, cost)` per portal.
    pub(in crate::hier::hpa) fn transitions_into(&self, index: usize) -> Vec<Vec<(u32, u64)>> {
        let into = self.arrivals(index);
        (0..self.cells[index].portals.len())
            .map(|local| into.of(local).to_vec())
            .collect()
    }

    /// The transitions into each portal of cell `index`, `(source slot, cost)`, in the order
    /// of the cells around and their exits.
    pub(in crate::hier::hpa) fn arrivals(&self, index: usize) -> Arrivals {
        let cell = &self.cells[index];
        let count = cell.portals.len();
        // `(local, source slot, cost)`, then counted out by portal in that order.
        let mut found: Vec<(u32, u32, u64)> = Vec::new();
        for near in self.cells_around(cell.chunk) {
            let near = &self.cells[near];
            // Exits are sorted by source: each source's place is looked up once.
            let mut source: Option<(crate::graph::NodeId, Option<usize>)> = None;
            for (exit, &target) in near.exits.iter().zip(&near.targets) {
                let Some(local) = target
                    .checked_sub(cell.base)
                    .filter(|&local| (local as usize) < count)
                else {
                    continue;
                };
                let at = match source {
                    Some((from, at)) if from == exit.from => at,
                    _ => {
                        let at = near.portals.iter().position(|&p| p == exit.from);
                        source = Some((exit.from, at));
                        at
                    }
                };
                if let Some(at) = at {
                    found.push((local, near.base + at as u32, u64::from(exit.cost)));
                }
            }
        }
        let mut first = vec![0u32; count + 1];
        for &(local, _, _) in &found {
            first[local as usize + 1] += 1;
        }
        for local in 0..count {
            first[local + 1] += first[local];
        }
        let mut fill = first[..count].to_vec();
        let mut edges = vec![(0, 0); found.len()];
        for &(local, from, cost) in &found {
            edges[fill[local as usize] as usize] = (from, cost);
            fill[local as usize] += 1;
        }
        Arrivals { first, edges }
    }
}
