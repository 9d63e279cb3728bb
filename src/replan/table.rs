//! [`MoveTable`]: the moves of a [`NavGraph`] stored per node in both directions, priced at
//! one [`MoveCosts`], for D* Lite.
//!
//! D* Lite reads the moves into a node on every expansion and the moves out of a node on
//! every cost lookup. The graph derives both from its per-column move codes: the moves out
//! by finding each target in its column's chain, the moves in by scanning the chains of the
//! ten columns a move into the node can come from. That scan was a third of D* Lite's time,
//! so the table reads each direction once, at plan time, into two compressed lists indexed
//! by node id (offsets into one flat edge array), and keeps them right across
//! [`NavGraph::update`]s by re-reading only what a [`GraphUpdate`] names:
//!
//! - the moves out of every changed node (its moves or their prices may differ) and of no
//!   removed one;
//! - the moves into every node that is, or was, the target of such a node's move (the old
//!   targets are in the table's own lists, read before they are replaced), and into every
//!   added node.
//!
//! Since a [`GraphUpdate`] lists every node whose moves out may differ, no other list can
//! have changed. `tests` below check the patched table against a fresh build after random
//! block changes.

use crate::graph::{GraphUpdate, NO_NODE, NavGraph, NodeId};

/// Edges reserved beyond a built table's, for patches.
const SLACK: usize = 1 << 16;
use crate::moves::agent::MoveCosts;

/// One move seen from one end: the node at the other end and the move's cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Edge {
    pub(super) node: NodeId,
    pub(super) cost: u32,
}

/// Where a node's list lies in [`Lists::edges`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

/// One list of edges per node id, in one flat array. A list that grows is written anew at
/// the end of the array; the space it leaves is reclaimed by compacting once it is more than
/// half of the array.
#[derive(Debug, Clone, Default)]
struct Lists {
    spans: Vec<Span>,
    edges: Vec<Edge>,
    /// Edges in `edges` that no span covers.
    unused: usize,
}

impl Lists {
    #[inline]
    fn get(&self, id: NodeId) -> &[Edge] {
        match self.spans.get(id as usize) {
            Some(span) => &self.edges[span.start as usize..(span.start + span.len) as usize],
            None => &[],
        }
    }

    /// Makes `list` the list of `id` (below `spans.len()`).
    fn set(&mut self, id: NodeId, list: &[Edge]) {
        let span = &mut self.spans[id as usize];
        let len = list.len() as u32;
        if len <= span.len {
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

    /// Rewrites the lists without the unused space between them.
    fn compact(&mut self) {
        let mut edges = Vec::with_capacity(self.edges.len() - self.unused);
        for span in &mut self.spans {
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

/// The moves of a [`NavGraph`] in both directions, priced at one [`MoveCosts`]; see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub(super) struct MoveTable {
    costs: MoveCosts,
    out: Lists,
    into: Lists,
    /// Reused buffers of [`MoveTable::patch`].
    list: Vec<Edge>,
    targets: Vec<NodeId>,
    added: Vec<NodeId>,
}

/// What a [`MoveTable::patch`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Patch {
    /// No move appeared and none got cheaper (moves out of added nodes aside: a route can
    /// only reach an added node through a move into it, which appeared): every route costs
    /// at least what it cost before the update.
    pub(super) only_worse: bool,
}

impl MoveTable {
    /// Reads every move of `graph`, priced at `costs`.
    pub(super) fn build(graph: &NavGraph, costs: &MoveCosts) -> Self {
        let bound = graph.id_bound();
        // Room for updates to add a quarter more ids without moving the spans (each move
        // copies them all, which a replan should not pay for).
        let spans = || {
            let mut spans = Vec::with_capacity(bound + bound / 4 + 1024);
            spans.resize(bound, Span::default());
            spans
        };
        // Room for the moves of a node in every direction, and later for patches to append
        // lists without moving the array (pages never written cost no memory).
        let mut out = Lists {
            spans: spans(),
            edges: Vec::with_capacity(graph.node_count() * 8 + SLACK),
            unused: 0,
        };
        let mut incoming = vec![0u32; bound + 1];
        for id in graph.nodes() {
            let start = out.edges.len() as u32;
            graph.for_each_move(id, costs, |step| {
                incoming[step.node as usize + 1] += 1;
                out.edges.push(Edge {
                    node: step.node,
                    cost: step.cost,
                });
            });
            out.spans[id as usize] = Span {
                start,
                len: out.edges.len() as u32 - start,
            };
        }
        // The moves in, by counting: `incoming[t + 1]` moves end at `t`.
        let mut into = Lists {
            spans: spans(),
            edges: Vec::with_capacity(out.edges.capacity()),
            unused: 0,
        };
        into.edges.resize(
            out.edges.len(),
            Edge {
                node: NO_NODE,
                cost: 0,
            },
        );
        for t in 0..bound {
            incoming[t + 1] += incoming[t];
            into.spans[t].start = incoming[t];
        }
        for (source, span) in out.spans.iter().enumerate() {
            for edge in &out.edges[span.start as usize..(span.start + span.len) as usize] {
                let target = &mut into.spans[edge.node as usize];
                into.edges[(target.start + target.len) as usize] = Edge {
                    node: source as NodeId,
                    cost: edge.cost,
                };
                target.len += 1;
            }
        }
        Self {
            costs: *costs,
            out,
            into,
            list: Vec::new(),
            targets: Vec::new(),
            added: Vec::new(),
        }
    }

    /// The moves out of `id`: targets and costs, in the order of
    /// [`NavGraph::for_each_move`].
    #[inline]
    pub(super) fn out(&self, id: NodeId) -> &[Edge] {
        self.out.get(id)
    }

    /// The moves into `id`: sources and costs.
    #[inline]
    pub(super) fn into(&self, id: NodeId) -> &[Edge] {
        self.into.get(id)
    }

    /// Brings the table up to date with `graph` after the graph's update `update`.
    pub(super) fn patch(&mut self, graph: &NavGraph, update: &GraphUpdate) -> Patch {
        let bound = graph.id_bound();
        for lists in [&mut self.out, &mut self.into] {
            if lists.spans.len() < bound {
                lists.spans.resize(bound, Span::default());
            }
        }
        let mut only_worse = true;
        let mut added = std::mem::take(&mut self.added);
        added.clone_from(&update.added);
        added.sort_unstable();
        let mut targets = std::mem::take(&mut self.targets);
        let mut list = std::mem::take(&mut self.list);
        targets.clear();
        for &id in &update.removed {
            targets.extend(self.out.get(id).iter().map(|edge| edge.node));
            self.out.set(id, &[]);
            self.into.set(id, &[]);
        }
        for &id in &update.changed {
            list.clear();
            graph.for_each_move(id, &self.costs, |step| {
                list.push(Edge {
                    node: step.node,
                    cost: step.cost,
                });
            });
            let old = self.out.get(id);
            if only_worse && added.binary_search(&id).is_err() {
                only_worse = list.iter().all(|new| {
                    old.iter()
                        .any(|before| before.node == new.node && before.cost <= new.cost)
                });
            }
            targets.extend(old.iter().chain(&list).map(|edge| edge.node));
            self.out.set(id, &list);
        }
        targets.extend_from_slice(&update.added);
        targets.sort_unstable();
        targets.dedup();
        for &id in &targets {
            list.clear();
            graph.for_each_incoming(id, &self.costs, |step| {
                list.push(Edge {
                    node: step.node,
                    cost: step.cost,
                });
            });
            self.into.set(id, &list);
        }
        self.targets = targets;
        self.list = list;
        self.added = added;
        Patch { only_worse }
    }
}

#[cfg(all(test, feature = "terrain"))]
mod tests {
    use glam::IVec3;

    use super::{Edge, MoveTable};
    use crate::graph::NavGraph;
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::terrain::SplitMix64;
    use crate::world::chunked::{Block, ChunkedWorld};

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

    fn lists(table: &MoveTable, graph: &NavGraph) -> Vec<(Vec<Edge>, Vec<Edge>)> {
        let sorted = |list: &[Edge]| {
            let mut list = list.to_vec();
            list.sort_unstable_by_key(|edge| (edge.node, edge.cost));
            list
        };
        (0..graph.id_bound() as u32)
            .map(|id| (sorted(table.out(id)), sorted(table.into(id))))
            .collect()
    }

    /// The patched table equals a fresh build, list for list, after each of many random block
    /// changes on random small worlds; and `only_worse` holds only when no route got cheaper
    /// (checked on the lists: every move now present was present before at no higher cost).
    #[test]
    fn patched_table_equals_a_fresh_build_after_random_changes() {
        let size = IVec3::new(9, 7, 9);
        let (mut patches, mut worse) = (0, 0);
        for seed in 0..40u64 {
            let mut rng = SplitMix64::new(seed);
            let mut world = ChunkedWorld::with_size(size).unwrap();
            world
                .fill(
                    IVec3::ZERO,
                    IVec3::new(size.x - 1, 0, size.z - 1),
                    Block::Solid,
                )
                .unwrap();
            let cell = |rng: &mut SplitMix64| {
                IVec3::new(
                    rng.below(size.x as u64) as i32,
                    1 + rng.below(size.y as u64 - 1) as i32,
                    rng.below(size.z as u64) as i32,
                )
            };
            for _ in 0..40 {
                let at = cell(&mut rng);
                world
                    .set(at, KINDS[rng.below(KINDS.len() as u64) as usize])
                    .unwrap();
            }
            let agent = Agent::default().with_max_drop(1 + rng.below(3) as u32);
            let costs = MoveCosts::default().with_climb(rng.below(3) as u32);
            let mut graph = NavGraph::compile(&world, &agent).unwrap();
            let mut table = MoveTable::build(&graph, &costs);
            for _ in 0..30 {
                let before = lists(&table, &graph);
                let mut changed = Vec::new();
                for _ in 0..=rng.below(4) {
                    let at = cell(&mut rng);
                    world
                        .set(at, KINDS[rng.below(KINDS.len() as u64) as usize])
                        .unwrap();
                    changed.push(at);
                }
                let update = graph.update(&world, changed).unwrap();
                let patch = table.patch(&graph, &update);
                let after = lists(&table, &graph);
                let fresh = MoveTable::build(&graph, &costs);
                assert_eq!(after, lists(&fresh, &graph), "seed {seed}");
                let no_cheaper = after.iter().enumerate().all(|(id, (out, _))| {
                    update.added.contains(&(id as u32))
                        || out.iter().all(|new| {
                            before.get(id).is_some_and(|(old, _)| {
                                old.iter().any(|o| o.node == new.node && o.cost <= new.cost)
                            })
                        })
                });
                assert_eq!(patch.only_worse, no_cheaper, "seed {seed}");
                patches += 1;
                worse += usize::from(patch.only_worse);
            }
        }
        assert!(
            patches == 40 * 30 && worse > 100 && worse < patches - 100,
            "{worse} of {patches}"
        );
    }
}
