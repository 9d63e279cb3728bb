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
//! edges (a small Dijkstra, inside a cell or two). Values are read as ranges: a lower end
//! for what `F` is made of, an upper end for what it must bound.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::super::Abstraction;
use super::super::blocks::HpaCell;
use super::super::landmarks::LANDMARK_WAYS;

/// One cell's edges as the checks at its derived portals read them.
pub(super) struct Around {
    base: u32,
    count: usize,
    /// `table[from * count + to]`: the in-cell edge's cost.
    table: Vec<Option<u64>>,
    /// Per portal, the transitions into it and out of it, `(other slot, cost)`.
    into: Vec<Vec<(u32, u64)>>,
    out: Vec<Vec<(u32, u64)>>,
}

/// The cells' [`Around`]s an update's checks have needed so far.
#[derive(Default)]
pub(super) struct Arounds(Vec<(usize, Around)>);

/// Whether way `way` runs from the landmark (its near edges lead into a portal).
fn is_from(way: usize) -> bool {
    way.is_multiple_of(2)
}

impl Abstraction {
    /// [`Around`] of cell `index`, made once per update.
    fn around<'a>(&self, index: usize, arounds: &'a mut Arounds) -> &'a Around {
        let at = match arounds.0.iter().position(|(cell, _)| *cell == index) {
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
                let out = (0..count)
                    .map(|local| {
                        let mut out = Vec::new();
                        self.for_each_edge(cell.base + local as u32, false, |to, cost| {
                            out.push((to, u64::from(cost)));
                        });
                        out
                    })
                    .collect();
                let around = Around {
                    base: cell.base,
                    count,
                    table,
                    into: self.transitions_into(index),
                    out,
                };
                arounds.0.push((index, around));
                arounds.0.len() - 1
            }
        };
        &arounds.0[at].1
    }

    /// Visits the edges of the portal in `slot` on way `way`, `(other slot, cost)`: toward
    /// it (`near`: from the landmark's side) or away from it.
    fn for_each_way_edge(
        &self,
        slot: u32,
        way: usize,
        near: bool,
        arounds: &mut Arounds,
        mut visit: impl FnMut(u32, u64),
    ) {
        let Some((_, local)) = self.slot_portal(slot) else {
            return;
        };
        let around = self.around(self.slot_cell[slot as usize] as usize, arounds);
        // Edges into the portal on a from-way's near side and a to-way's far side.
        let into = near == is_from(way);
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
            &around.into[local]
        } else {
            &around.out[local]
        };
        for &(other, cost) in moves {
            visit(other, cost);
        }
    }

    /// The lower end of the distances way `way` of the stored `slot` stands for (`None`: no
    /// route).
    fn low(&self, slot: u32, way: usize) -> Option<u64> {
        self.landmarks
            .range(slot, self.slot_cell[slot as usize], way)
            .map(|(low, _)| low)
    }

    /// A lower bound on `F` of the derived `slot` on way `way` (see the
    /// [module docs](self)), `None` when no near edge comes from a reached portal: over its
    /// near edges, a stored neighbour's lower end, a derived one's near transitions (its
    /// near in-cell edges are the slot's own, in-cell costs being shortest routes), or 0.
    pub(super) fn lower(&self, slot: u32, way: usize, arounds: &mut Arounds) -> Option<u64> {
        let mut near = Vec::new();
        self.for_each_way_edge(slot, way, true, arounds, |other, cost| {
            near.push((other, cost));
        });
        let same_cell =
            |other: u32| self.slot_cell[other as usize] == self.slot_cell[slot as usize];
        near.iter()
            .filter_map(|&(other, cost)| {
                if self.landmarks.is_stored(other) {
                    return Some(self.low(other, way)? + cost);
                }
                if !same_cell(other) {
                    return Some(cost);
                }
                let mut through: Option<u64> = None;
                self.for_each_way_edge(other, way, true, arounds, |next, step| {
                    if same_cell(next) {
                        return;
                    }
                    let value = if self.landmarks.is_stored(next) {
                        self.low(next, way).map(|low| low + step)
                    } else {
                        Some(step)
                    };
                    if let Some(value) = value {
                        through = Some(through.map_or(value, |known| known.min(value)));
                    }
                });
                through.map(|through| through + cost)
            })
            .min()
    }

    /// Whether Bellman's condition can hold on an edge `u -> w` of `cost` that is new or
    /// cheaper than before, with either end derived or neither (see the
    /// [module docs](self)).
    pub(super) fn edge_holds(&self, u: u32, w: u32, cost: u32, arounds: &mut Arounds) -> bool {
        if self.landmarks.is_stored(u) && self.landmarks.is_stored(w) {
            return self.bellman(u, w, cost);
        }
        let cost = u64::from(cost);
        (0..LANDMARK_WAYS).all(|way| {
            let (near, far) = if is_from(way) { (u, w) } else { (w, u) };
            let start = if self.landmarks.is_stored(near) {
                self.low(near, way)
            } else {
                self.lower(near, way, arounds)
            };
            let Some(start) = start else {
                return true;
            };
            if self.landmarks.is_stored(far) {
                return self
                    .landmarks
                    .range(far, self.slot_cell[far as usize], way)
                    .is_some_and(|(_, high)| high <= start + cost);
            }
            self.lowered_hold(far, start + cost, way, arounds)
        })
    }

    /// Whether the derived `slot`'s `F` lowered to `value` on way `way`, and the derived
    /// portals' beyond it along far edges, still bound the stored far ends of their edges.
    fn lowered_hold(&self, slot: u32, value: u64, way: usize, arounds: &mut Arounds) -> bool {
        let mut best: Vec<(u32, u64)> = vec![(slot, value)];
        let mut heap = BinaryHeap::from([Reverse((value, slot))]);
        while let Some(Reverse((value, slot))) = heap.pop() {
            if best
                .iter()
                .any(|&(seen, known)| seen == slot && known < value)
            {
                continue;
            }
            let mut far = Vec::new();
            self.for_each_way_edge(slot, way, false, arounds, |other, cost| {
                far.push((other, cost));
            });
            for (other, cost) in far {
                let reached = value + cost;
                if self.landmarks.is_stored(other) {
                    let allowed = self
                        .landmarks
                        .range(other, self.slot_cell[other as usize], way)
                        .is_some_and(|(_, high)| high <= reached);
                    if !allowed {
                        return false;
                    }
                    continue;
                }
                match best.iter_mut().find(|(seen, _)| *seen == other) {
                    Some((_, known)) if *known <= reached => {}
                    Some((_, known)) => {
                        *known = reached;
                        heap.push(Reverse((reached, other)));
                    }
                    None => {
                        best.push((other, reached));
                        heap.push(Reverse((reached, other)));
                    }
                }
            }
        }
        true
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
            let chunk = self.cells[index].chunk;
            for dx in -1..=1 {
                for dz in -1..=1 {
                    if let Some(&other) = self.by_chunk.get(&[chunk[0] + dx, chunk[1] + dz]) {
                        around.push(other as usize);
                    }
                }
            }
        }
        around.sort_unstable();
        around.dedup();
        for index in around {
            let cell = &self.cells[index];
            let slots = cell.base..cell.base + cell.portals.len() as u32;
            if slots.clone().all(|slot| self.landmarks.is_stored(slot)) {
                continue;
            }
            let into = self.transitions_into(index);
            for (local, slot) in slots.enumerate() {
                if self.landmarks.is_stored(slot) {
                    continue;
                }
                let kept = self.landmarks.partner(slot).is_some_and(|(partner, lift)| {
                    self.landmarks.is_stored(partner)
                        && into[local]
                            .iter()
                            .any(|&(from, cost)| from == partner && cost <= lift)
                });
                if kept {
                    continue;
                }
                let mut sources: Vec<(u64, u32)> = into[local]
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
        let cell = &self.cells[index];
        let count = cell.portals.len();
        let mut into = vec![Vec::new(); count];
        for dx in -1..=1 {
            for dz in -1..=1 {
                let Some(&near) = self.by_chunk.get(&[cell.chunk[0] + dx, cell.chunk[1] + dz])
                else {
                    continue;
                };
                let near = &self.cells[near as usize];
                for (exit, &target) in near.exits.iter().zip(&near.targets) {
                    let Some(local) = target
                        .checked_sub(cell.base)
                        .map(|local| local as usize)
                        .filter(|&local| local < count)
                    else {
                        continue;
                    };
                    if let Some(at) = near.portals.iter().position(|&p| p == exit.from) {
                        into[local].push((near.base + at as u32, u64::from(exit.cost)));
                    }
                }
            }
        }
        into
    }
}
