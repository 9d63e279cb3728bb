//! [`MoveTable`]: the moves of a [`NavGraph`] stored per node in both directions, priced at
//! one [`MoveCosts`], for D* Lite; each node's lists are read from the graph the first time
//! D* Lite asks for them.
//!
//! D* Lite reads the moves into a node on every expansion and the moves out of a node on
//! every cost lookup. The graph derives both from its per-column move codes: the moves out
//! by finding each target in its column's chain, the moves in by scanning the chains of the
//! ten columns a move into the node can come from. That scan was a third of D* Lite's time,
//! so the table keeps each list once read, in two compressed lists indexed by node id
//! (offsets into one flat edge array).
//!
//! Lists are read lazily, node by node: a search touches a small part of the graph (a plan
//! across the default terrain expands about a tenth of its nodes), and reading the whole
//! graph up front cost three to four times the plan's own search. The lists stored stay
//! right across [`NavGraph::update`]s by re-reading only what a [`GraphUpdate`] names, with
//! the help of one invariant: **when the moves into a node are stored, so are the moves out
//! of each of their sources.** Then a patch re-reads
//!
//! - the moves out of every changed node (its moves or their prices may differ) and of no
//!   removed one;
//! - the stored moves into every node that is, or was, the target of such a node's move. The
//!   old targets are in the node's stored moves out; when those were never stored, no stored
//!   list of moves in names the node (by the invariant), so none is out of date.
//!
//! Since a [`GraphUpdate`] lists every node whose moves out may differ, no other list can
//! have changed. `tests` below check the patched table against a table read afresh after
//! random block changes.

use crate::graph::{GraphUpdate, NavGraph, NodeId};
use crate::moves::agent::MoveCosts;

/// Edges reserved beyond eight per node, for patches.
const SLACK: usize = 1 << 16;

/// One move seen from one end: the node at the other end and the move's cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Edge {
    pub(super) node: NodeId,
    pub(super) cost: u32,
}

/// Where a node's list lies in [`Lists::edges`]; `start == UNREAD` when it was never read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

/// The start of a list not read yet.
const UNREAD: u32 = u32::MAX;

const UNREAD_SPAN: Span = Span {
    start: UNREAD,
    len: 0,
};

/// One list of edges per node id, in one flat array, each read when first asked for. A list
/// that grows is written anew at the end of the array; the space it leaves is reclaimed by
/// compacting once it is more than half of the array.
#[derive(Debug, Clone, Default)]
struct Lists {
    spans: Vec<Span>,
    edges: Vec<Edge>,
    /// Edges in `edges` that no span covers.
    unused: usize,
}

impl Lists {
    /// Forgets every list, with room for node ids below `bound` (and capacity for a quarter
    /// more) and capacity for `edges` edges.
    fn reset(&mut self, bound: usize, edges: usize) {
        self.spans.clear();
        self.spans.reserve(bound + bound / 4 + 1024);
        self.spans.resize(bound, UNREAD_SPAN);
        self.edges.clear();
        self.edges.reserve(edges);
        self.unused = 0;
    }

    /// The list of `id`, when it was read.
    #[inline]
    fn get(&self, id: NodeId) -> Option<&[Edge]> {
        let span = self.spans.get(id as usize)?;
        if span.start == UNREAD {
            return None;
        }
        Some(&self.edges[span.start as usize..(span.start + span.len) as usize])
    }

    /// Makes `list` the list of `id` (below `spans.len()`).
    fn set(&mut self, id: NodeId, list: &[Edge]) {
        let span = &mut self.spans[id as usize];
        let len = list.len() as u32;
        if span.start != UNREAD && len <= span.len {
            let start = span.start as usize;
            self.edges[start..start + list.len()].copy_from_slice(list);
            self.unused += (span.len - len) as usize;
            span.len = len;
            return;
        }
        self.unused += span.len as usize;
        *span = Span {
            start: self.edges.len() as u32,
            len,
        };
        self.edges.extend_from_slice(list);
        if self.unused > self.edges.len() / 2 {
            self.compact();
        }
    }

    /// Forgets the list of `id` (below `spans.len()`).
    fn unset(&mut self, id: NodeId) {
        let span = &mut self.spans[id as usize];
        self.unused += span.len as usize;
        *span = UNREAD_SPAN;
    }

    /// Rewrites the lists without the unused space between them.
    fn compact(&mut self) {
        let mut edges = Vec::with_capacity(self.edges.len() - self.unused);
        for span in &mut self.spans {
            if span.start == UNREAD {
                continue;
            }
            let start = edges.len() as u32;
            edges.extend_from_slice(
                &self.edges[span.start as usize..(span.start + span.len) as usize],
            );
            span.start = start;
        }
        self.edges = edges;
        self.unused = 0;
    }
}

/// The moves of a [`NavGraph`] in both directions, priced at one [`MoveCosts`], read as
/// asked for; see the [module docs](self).
#[derive(Debug, Clone, Default)]
pub(super) struct MoveTable {
    costs: MoveCosts,
    out: Lists,
    into: Lists,
    /// Reused buffers.
    list: Vec<Edge>,
    targets: Vec<NodeId>,
}

impl MoveTable {
    /// Forgets every list: the table of `graph` at `costs`, nothing read yet.
    pub(super) fn reset(&mut self, graph: &NavGraph, costs: &MoveCosts) {
        self.costs = *costs;
        // Room for updates to add a quarter more ids without moving the spans (each move
        // copies them all, which a replan should not pay for).
        // Room for every node's moves likewise, so that reading more of them never copies
        // the lists read so far (pages never written cost no memory).
        let bound = graph.id_bound();
        let edges = graph.node_count() * 8 + SLACK;
        for lists in [&mut self.out, &mut self.into] {
            lists.reset(bound, edges);
        }
    }

    /// Reads the moves out of `id` from `graph` into `list`.
    fn read_out(graph: &NavGraph, costs: &MoveCosts, id: NodeId, list: &mut Vec<Edge>) {
        list.clear();
        graph.for_each_move(id, costs, |step| {
            list.push(Edge {
                node: step.node,
                cost: step.cost,
            });
        });
    }

    /// Reads the moves into `id` from `graph` into `list`: sources and costs, in the order of
    /// [`NavGraph::for_each_incoming`].
    fn read_in(graph: &NavGraph, costs: &MoveCosts, id: NodeId, list: &mut Vec<Edge>) {
        list.clear();
        graph.for_each_incoming(id, costs, |step| {
            list.push(Edge {
                node: step.node,
                cost: step.cost,
            });
        });
    }

    /// The moves out of `id`: targets and costs, in the order of
    /// [`NavGraph::for_each_move`], read from `graph` unless read already.
    #[inline]
    pub(super) fn out(&mut self, graph: &NavGraph, id: NodeId) -> &[Edge] {
        self.ensure_out(graph, id);
        self.out.get(id).unwrap_or(&[])
    }

    /// The moves out of `id` when they were read.
    #[cfg(test)]
    pub(super) fn out_read(&self, id: NodeId) -> Option<&[Edge]> {
        self.out.get(id)
    }

    /// Reads the moves out of `id` unless read already.
    #[inline]
    fn ensure_out(&mut self, graph: &NavGraph, id: NodeId) {
        if (id as usize) < self.out.spans.len() && self.out.spans[id as usize].start != UNREAD {
            return;
        }
        self.grow(graph);
        let mut list = std::mem::take(&mut self.list);
        Self::read_out(graph, &self.costs, id, &mut list);
        self.out.set(id, &list);
        self.list = list;
    }

    /// The moves into `id`: sources and costs, read from `graph` unless read already.
    #[inline]
    pub(super) fn incoming(&mut self, graph: &NavGraph, id: NodeId) -> &[Edge] {
        if (id as usize) >= self.into.spans.len() || self.into.spans[id as usize].start == UNREAD {
            self.grow(graph);
            self.read_into(graph, id);
        }
        self.into.get(id).unwrap_or(&[])
    }

    /// Reads the moves into `id` from `graph`, and the moves out of each of their sources
    /// (the invariant of the [module docs](self)).
    fn read_into(&mut self, graph: &NavGraph, id: NodeId) {
        let mut list = std::mem::take(&mut self.list);
        Self::read_in(graph, &self.costs, id, &mut list);
        self.into.set(id, &list);
        let mut sources = std::mem::take(&mut self.targets);
        sources.clear();
        sources.extend(list.iter().map(|edge| edge.node));
        self.list = list;
        for &source in &sources {
            self.ensure_out(graph, source);
        }
        self.targets = sources;
    }

    /// Makes room for every node id of `graph`.
    fn grow(&mut self, graph: &NavGraph) {
        let bound = graph.id_bound();
        for lists in [&mut self.out, &mut self.into] {
            if lists.spans.len() < bound {
                lists.spans.resize(bound, UNREAD_SPAN);
            }
        }
    }

    /// Brings the table up to date with `graph` after the graph's update `update`.
    pub(super) fn patch(&mut self, graph: &NavGraph, update: &GraphUpdate) {
        self.grow(graph);
        let mut targets = std::mem::take(&mut self.targets);
        let mut list = std::mem::take(&mut self.list);
        targets.clear();
        for &id in &update.removed {
            if let Some(old) = self.out.get(id) {
                targets.extend(old.iter().map(|edge| edge.node));
            }
            self.out.unset(id);
            self.into.unset(id);
        }
        for &id in &update.changed {
            Self::read_out(graph, &self.costs, id, &mut list);
            if let Some(old) = self.out.get(id) {
                targets.extend(old.iter().map(|edge| edge.node));
            }
            targets.extend(list.iter().map(|edge| edge.node));
            self.out.set(id, &list);
        }
        targets.sort_unstable();
        targets.dedup();
        // Stored lists of moves in are re-read (keeping the invariant: their sources' moves
        // out are read too); the others are read when first asked for. An added node's
        // lists were forgotten when its id was last removed, or never read.
        for &id in &targets {
            if self.into.get(id).is_none() {
                continue;
            }
            Self::read_in(graph, &self.costs, id, &mut list);
            self.into.set(id, &list);
            for edge in &list {
                self.ensure_out(graph, edge.node);
            }
        }
        self.targets = targets;
        self.list = list;
    }
}

#[cfg(all(test, feature = "terrain"))]
mod tests {
    use glam::IVec3;

    use super::super::test_worlds::{cell, floor_and_blocks};
    use super::{Edge, MoveTable};
    use crate::graph::{NavGraph, NodeId};
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::terrain::SplitMix64;
    use crate::world::chunked::Block;

    const KINDS: [Block; 10] = [
        Block::Air,
        Block::Air,
        Block::Solid,
        Block::Solid,
        Block::Water,
        Block::Lava,
        Block::SlowFloor,
        Block::Ladder,
        Block::Floor(8),
        Block::Fence,
    ];

    fn sorted(list: &[Edge]) -> Vec<Edge> {
        let mut list = list.to_vec();
        list.sort_unstable_by_key(|edge| (edge.node, edge.cost));
        list
    }

    /// Every list the patched table holds equals the list read afresh from the updated graph,
    /// after each of many random block changes on random small worlds, with random lists read
    /// between the changes as a search would; and the moves out of every source of a stored
    /// list of moves in are stored (the invariant).
    #[test]
    fn patched_table_equals_a_fresh_read_after_random_changes() {
        let size = IVec3::new(9, 7, 9);
        let mut patches = 0;
        for seed in 0..40u64 {
            let mut rng = SplitMix64::new(seed);
            let mut world = floor_and_blocks(&mut rng, size, &KINDS, 40);
            let agent = Agent::default().with_max_drop(1 + rng.below(3) as u32);
            let costs = MoveCosts::default().with_climb(rng.below(3) as u32);
            let mut graph = NavGraph::compile(&world, &agent).unwrap();
            let mut table = MoveTable::default();
            table.reset(&graph, &costs);
            for _ in 0..30 {
                for _ in 0..rng.below(graph.id_bound() as u64) {
                    let id = rng.below(graph.id_bound() as u64) as NodeId;
                    if graph.is_live(id) {
                        let _ = table.incoming(&graph, id);
                    }
                }
                let mut changed = Vec::new();
                for _ in 0..=rng.below(4) {
                    let at = cell(&mut rng, size);
                    world
                        .set(at, KINDS[rng.below(KINDS.len() as u64) as usize])
                        .unwrap();
                    changed.push(at);
                }
                let update = graph.update(&world, changed).unwrap();
                table.patch(&graph, &update);
                let mut fresh = MoveTable::default();
                fresh.reset(&graph, &costs);
                for id in 0..graph.id_bound() as NodeId {
                    if let Some(out) = table.out_read(id) {
                        assert_eq!(sorted(out), sorted(fresh.out(&graph, id)), "seed {seed}");
                    }
                    if let Some(into) = table.into.get(id).map(<[Edge]>::to_vec) {
                        assert_eq!(
                            sorted(&into),
                            sorted(fresh.incoming(&graph, id)),
                            "seed {seed}"
                        );
                        for edge in into {
                            assert!(table.out_read(edge.node).is_some(), "seed {seed}");
                        }
                    }
                }
                patches += 1;
            }
        }
        assert_eq!(patches, 40 * 30);
    }
}
