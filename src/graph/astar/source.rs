//! The compiled graph as a move source: [`Forward`] over each node's moves word, searched with
//! the id-indexed records of `records.rs`.

use glam::IVec3;

use super::detours::{DetourTable, SLOT_OF_BIT};
use super::records::{GraphRecords, Record};
use crate::graph::{CODE_BITS, CODE_MASK, NO_NODE, NavGraph, NodeId, Pricing, SLOT_DIRECTIONS};
use crate::moves::agent::MoveCosts;
use crate::moves::terrain_cost;
use crate::search::core::{Landing, MoveSource, Successor};

/// The moves out of each node, decoded from its moves word at the graph's prices, less the
/// ones its parent dominates (see [`DetourTable::dominated`]).
pub(super) struct Forward<'a> {
    pub(super) graph: &'a NavGraph,
    pub(super) pricing: &'a Pricing,
    pub(super) detours: &'a DetourTable,
    pub(super) costs: &'a MoveCosts,
}

/// A move of the graph: its slot and its rise.
#[derive(Debug, Clone, Copy)]
pub(super) struct SlotMove {
    slot: usize,
    dy: i32,
}

impl Landing for SlotMove {
    #[inline]
    fn feet(self, from: IVec3) -> IVec3 {
        let direction = SLOT_DIRECTIONS[self.slot];
        from + IVec3::new(direction.x, self.dy, direction.z)
    }
}

impl<'r, R: Record> MoveSource<GraphRecords<'r, R>> for Forward<'_> {
    type Landing = SlotMove;

    /// In the graph's coordinates (relative to its origin), as the goal is asked.
    #[inline]
    fn feet(&self, _: &GraphRecords<'r, R>, node: u32) -> IVec3 {
        self.graph.local_feet(node)
    }

    #[inline]
    fn expand(
        &mut self,
        table: &mut GraphRecords<'r, R>,
        node: u32,
        record: R,
        feet: IVec3,
        mut relax: impl FnMut(
            &mut GraphRecords<'r, R>,
            Successor<NodeId, (usize, u64), Self::Landing>,
        ) -> bool,
    ) {
        // Locals, not fields: the relaxation writes records and the open set between loads,
        // and the compiler cannot tell those writes leave the prices alone.
        let (graph, pricing, detours, costs) = (self.graph, self.pricing, self.detours, self.costs);
        let slots = &graph.slots[..];
        let local = feet;
        let y = local.y;
        // The home of each slot's column, worked out once per expansion from the node's own
        // (see `NavGraph::around`).
        let around = graph.around(graph.home_of(node));
        // Move by move from the lowest set bit: once the dominated moves are cleared, a word
        // has more empty slots than moves, and stepping slot by slot cost 2% more
        // instructions on the terrain queries of `benches/graph.rs`.
        let mut word = slots[node as usize].moves();
        if let Some(arrival) = record.arrival(graph, pricing, node, y, &around) {
            word &= !detours.dominated(word, arrival);
        }
        while word != 0 {
            // The lowest move left: its slot from its lowest set bit by a table (no
            // division), then its code, which is cleared from the word.
            let slot = usize::from(SLOT_OF_BIT[word.trailing_zeros() as usize & 63]);
            let shift = slot as u32 * CODE_BITS;
            let code = (word >> shift) & CODE_MASK;
            word &= !(CODE_MASK << shift);
            let step = pricing.step(slot, code);
            let dy = step.dy;
            let column = around[slot & 15];
            let target_y = (y + dy) as u16;
            // The home slot holds the target unless its column has more than one node.
            let mut target = column as NodeId;
            let mut entry = slots[column];
            if entry.y != target_y {
                // Out of line: the chain's array stays out of the registers of the common
                // case.
                target = graph.find_in_chain(column, target_y);
                if target == NO_NODE {
                    continue;
                }
                entry = slots[target as usize];
            }
            let terms = if entry.is_plain() {
                0
            } else {
                terrain_cost(graph.slot_terrain(target, entry), costs)
                    .saturating_add(graph.extra_cost(target))
            };
            let next = Successor {
                at: target,
                landing: SlotMove { slot, dy },
                cost: step.base.saturating_add(terms),
                via: (slot, code),
            };
            if !relax(table, next) {
                return;
            }
        }
    }
}

/// The moves into each node, read backwards: a search from a target over this source finds
/// every node's cost *to* the target (the chase field, the replanner's first plan). Positions
/// are world feet positions. Searched with [`Wide`](super::records::Wide) records: their
/// parent is the next node toward the target.
pub(super) struct Backward<'a, const CUT: bool> {
    pub(super) graph: &'a NavGraph,
    pub(super) costs: &'a MoveCosts,
    /// Moves whose route to the target would cost more are left out (`CUT`).
    pub(super) radius: u64,
    /// The nodes expanded, in order, when kept.
    pub(super) expanded: Option<&'a mut Vec<NodeId>>,
}

impl<'r, R: Record, const CUT: bool> MoveSource<GraphRecords<'r, R>> for Backward<'_, CUT> {
    /// The move's source, in world coordinates.
    type Landing = IVec3;

    #[inline]
    fn feet(&self, _: &GraphRecords<'r, R>, node: u32) -> IVec3 {
        self.graph.feet(node)
    }

    #[inline]
    fn expand(
        &mut self,
        table: &mut GraphRecords<'r, R>,
        node: u32,
        record: R,
        _: IVec3,
        mut relax: impl FnMut(
            &mut GraphRecords<'r, R>,
            Successor<NodeId, (usize, u64), Self::Landing>,
        ) -> bool,
    ) {
        if let Some(expanded) = self.expanded.as_deref_mut() {
            expanded.push(node);
        }
        let (g, radius) = (record.g(), self.radius);
        let mut going = true;
        self.graph.for_each_incoming(node, self.costs, |step| {
            if going && (!CUT || g + u64::from(step.cost) <= radius) {
                going = relax(
                    table,
                    Successor {
                        at: step.node,
                        landing: step.feet,
                        cost: step.cost,
                        // A wide record keeps the parent itself.
                        via: (0, 0),
                    },
                );
            }
        });
    }
}
