//! One cell of the hierarchy: its portals, the exact costs between them, and the searches
//! that stay inside one cell (the query's first and last legs, and the refinement of an
//! overlay edge into walk moves).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use ahash::AHashMap;
use glam::IVec3;
use std::collections::hash_map::Entry;

use crate::error::{Error, Result};
use crate::graph::{NavGraph, NodeId};
use crate::moves::agent::MoveCosts;
use crate::search::heuristic::Estimator;

use crate::search::open::OpenSet;

/// The side of a cell in blocks: a chunk column.
pub(super) const CELL_SIDE: i32 = 16;

/// The cost in a cell's table of a portal that the other cannot reach inside the cell.
pub(super) const UNREACHED: u32 = u32::MAX;

/// A cell's name: the chunk coordinates of its column.
pub(super) type Chunk = [i32; 2];

/// The cell holding the feet position `feet` (a floor division by 16, negative coordinates
/// included).
#[inline]
pub(super) fn chunk_of(feet: IVec3) -> Chunk {
    [feet.x.div_euclid(CELL_SIDE), feet.z.div_euclid(CELL_SIDE)]
}

/// Whether the feet position `feet` lies in a column on the border of its cell, the only
/// columns whose nodes can have a move to or from another cell (moves span one column).
#[inline]
pub(super) fn on_border(feet: IVec3) -> bool {
    let (x, z) = (feet.x.rem_euclid(CELL_SIDE), feet.z.rem_euclid(CELL_SIDE));
    x == 0 || z == 0 || x == CELL_SIDE - 1 || z == CELL_SIDE - 1
}

/// Whether node `id` of cell `chunk` has a move to or from another cell.
pub(super) fn is_portal(graph: &NavGraph, costs: &MoveCosts, id: NodeId, chunk: Chunk) -> bool {
    let mut crosses = false;
    graph.for_each_move(id, costs, |step| crosses |= chunk_of(step.feet) != chunk);
    if !crosses {
        graph.for_each_incoming(id, costs, |step| crosses |= chunk_of(step.feet) != chunk);
    }
    crosses
}

/// The portals and table of one cell, as [`derive`] finds them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Derived {
    /// The portals, ordered by local x, local z, then feet y.
    pub(super) portals: Vec<NodeId>,
    /// `table[i * n + j]`: the cheapest route inside the cell from portal `i` to portal `j`,
    /// [`UNREACHED`] when there is none.
    pub(super) table: Vec<u32>,
}

/// Reusable buffers of [`derive`]: the cell's nodes reachable from its portals numbered
/// locally, their moves inside the cell in one flat list, and one Dijkstra's state.
#[derive(Debug, Default, Clone)]
pub(super) struct DeriveScratch {
    local: AHashMap<NodeId, u32>,
    nodes: Vec<NodeId>,
    first_edge: Vec<u32>,
    edges: Vec<(u32, u32)>,
    dist: Vec<u64>,
    frontier: Frontier,
}

/// The most buckets [`Frontier`] uses: a cell whose moves cost more than this less one
/// (unusual costs) is searched with a binary heap instead.
const MAX_BUCKETS: u32 = 256;

/// The open set of the table's Dijkstra searches: Dial's bucket queue (one bucket per cost
/// modulo a power of two above the largest move cost, so no comparisons) when the cell's
/// moves are cheap,
/// as with the default costs, else a binary heap. Half of a cell's derivation was heap
/// operations (perf, `long --edits 3000`).
#[derive(Debug, Default, Clone)]
struct Frontier {
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    buckets: Vec<Vec<u32>>,
    /// The number of buckets in use, a power of two (so a cost's bucket is a mask, not a
    /// division, on every push and pop); 0 for the heap.
    span: u64,
    /// The cost of the entries popped last (entries in buckets cost `at` to `at + span - 1`).
    at: u64,
    pending: usize,
}

impl Frontier {
    /// Empties the frontier for a search over moves costing at most `max_cost`.
    fn reset(&mut self, max_cost: u32) {
        self.heap.clear();
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        self.span = if max_cost < MAX_BUCKETS {
            (u64::from(max_cost) + 1).next_power_of_two()
        } else {
            0
        };
        self.buckets.resize_with(self.span as usize, Vec::new);
        self.buckets.truncate(self.span as usize);
        self.at = 0;
        self.pending = 0;
    }

    /// Adds `node` at cost `g`: with buckets, `g` lies within the largest move cost of the
    /// cost last popped, as in Dijkstra's search.
    #[inline]
    fn push(&mut self, g: u64, node: u32) {
        if self.span == 0 {
            self.heap.push(Reverse((g, node)));
        } else {
            self.buckets[(g & (self.span - 1)) as usize].push(node);
            self.pending += 1;
        }
    }

    /// The cheapest entry, `(cost, node)`.
    #[inline]
    fn pop(&mut self) -> Option<(u64, u32)> {
        if self.span == 0 {
            return self.heap.pop().map(|Reverse(entry)| entry);
        }
        while self.pending > 0 {
            if let Some(node) = self.buckets[(self.at & (self.span - 1)) as usize].pop() {
                self.pending -= 1;
                return Some((self.at, node));
            }
            self.at += 1;
        }
        None
    }
}

impl DeriveScratch {
    fn intern(&mut self, id: NodeId) -> u32 {
        let next = self.nodes.len() as u32;
        *self.local.entry(id).or_insert_with(|| {
            self.nodes.push(id);
            next
        })
    }
}

/// Sorts `portals` into the canonical order (local x, local z, feet y), so that a cell
/// derived after an update lists them as a fresh build does.
pub(super) fn sort_portals(graph: &NavGraph, portals: &mut [NodeId]) {
    // Keys read once per portal: `feet` decodes the node's record, and a comparison sort
    // asked for it about 2 log n times per portal (a tenth of an edit's instructions).
    portals.sort_by_cached_key(|&id| {
        let feet = graph.feet(id);
        (
            feet.x.rem_euclid(CELL_SIDE),
            feet.z.rem_euclid(CELL_SIDE),
            feet.y,
        )
    });
}

/// The table of the cell `chunk` whose portals are `portals` (in canonical order): one
/// Dijkstra per portal over the moves that stay inside the cell.
///
/// # Errors
/// [`Error::GraphTooLarge`] when a cost inside the cell does not fit 32 bits (costs that
/// large need a wider table than this one keeps).
pub(super) fn derive(
    graph: &NavGraph,
    costs: &MoveCosts,
    chunk: Chunk,
    portals: Vec<NodeId>,
    scratch: &mut DeriveScratch,
) -> Result<Derived> {
    scratch.local.clear();
    scratch.nodes.clear();
    scratch.first_edge.clear();
    scratch.edges.clear();
    for &portal in &portals {
        scratch.intern(portal);
    }
    // Every route between two portals starts at a portal, so the nodes reachable from the
    // portals are all the table needs.
    let mut next = 0;
    let mut targets = Vec::new();
    while next < scratch.nodes.len() {
        let id = scratch.nodes[next];
        scratch.first_edge.push(scratch.edges.len() as u32);
        targets.clear();
        graph.for_each_move(id, costs, |step| {
            if chunk_of(step.feet) == chunk {
                targets.push((step.node, step.cost));
            }
        });
        for &(target, cost) in &targets {
            let local = scratch.intern(target);
            scratch.edges.push((local, cost));
        }
        next += 1;
    }
    scratch.first_edge.push(scratch.edges.len() as u32);

    let n = portals.len();
    let mut table = vec![UNREACHED; n * n];
    let max_cost = scratch
        .edges
        .iter()
        .map(|&(_, cost)| cost)
        .max()
        .unwrap_or(0);
    for from in 0..n {
        scratch.dist.clear();
        scratch.dist.resize(scratch.nodes.len(), u64::MAX);
        scratch.dist[from] = 0;
        scratch.frontier.reset(max_cost);
        scratch.frontier.push(0, from as u32);
        let mut settled_portals = 0;
        while let Some((g, node)) = scratch.frontier.pop() {
            let node = node as usize;
            if g > scratch.dist[node] {
                continue;
            }
            if node < n {
                table[from * n + node] = u32::try_from(g)
                    .ok()
                    .filter(|&cost| cost != UNREACHED)
                    .ok_or_else(|| {
                        Error::GraphTooLarge(format!(
                            "a route inside the chunk column {chunk:?} costs {g}, more than the \
                             hierarchy's 32-bit table holds"
                        ))
                    })?;
                settled_portals += 1;
                if settled_portals == n {
                    break;
                }
            }
            let edges = scratch.first_edge[node] as usize..scratch.first_edge[node + 1] as usize;
            for &(target, cost) in &scratch.edges[edges] {
                let next = g + u64::from(cost);
                if next < scratch.dist[target as usize] {
                    scratch.dist[target as usize] = next;
                    scratch.frontier.push(next, target);
                }
            }
        }
    }
    Ok(Derived { portals, table })
}

/// A search that stays inside one cell, forwards over moves or backwards over incoming
/// moves, exhaustive or toward one target: the legs of a query that the table does not
/// cover.
#[derive(Debug, Default, Clone)]
pub(super) struct CellSearch {
    /// Per reached node: its cost and the node it was reached from (for a backward search,
    /// the node it leads to), [`crate::graph::NO_NODE`] for a source.
    best: AHashMap<NodeId, Reached>,
    /// Ordered by `g` plus the estimate; equal keys deepest first, which on flat ground
    /// (many equal keys under the octile estimate) goes straight for the target where the
    /// binary heap's shallowest-first order spread out: the abstraction's windows took 27%
    /// fewer instructions (callgrind, `long --size 1024 --pairs 20`: 375 M to 272 M).
    heap: OpenSet,
    /// The moves of the node being expanded (kept for its allocation).
    steps: Vec<(NodeId, IVec3, u32)>,
    /// Nodes expanded by the last run.
    pub(super) expanded: u64,
}

/// A node a [`CellSearch`] reached.
#[derive(Debug, Clone, Copy)]
struct Reached {
    g: u64,
    parent: NodeId,
    /// Expanded at this `g`: an older entry of the node in the heap is stale.
    done: bool,
}

/// Which way a [`CellSearch`] follows moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    Forward,
    Backward,
}

impl CellSearch {
    /// Runs from `source` over the moves inside the cells of `region` (backwards over
    /// incoming moves for [`Direction::Backward`]). With a `target` (and the estimator toward its feet) this is
    /// A* that stops there and returns its cost; without one it reaches the whole cell and
    /// returns `None`.
    pub(super) fn run(
        &mut self,
        graph: &NavGraph,
        costs: &MoveCosts,
        region: &[Chunk],
        source: NodeId,
        direction: Direction,
        target: Option<(NodeId, IVec3, &Estimator)>,
    ) -> Option<u64> {
        self.best.clear();
        self.heap.reset(0);
        self.expanded = 0;
        self.best.insert(
            source,
            Reached {
                g: 0,
                parent: crate::graph::NO_NODE,
                done: false,
            },
        );
        let estimate =
            |feet: IVec3| target.map_or(0, |(_, goal, estimator)| estimator.between(feet, goal));
        self.heap.push(estimate(graph.feet(source)), 0, source);
        let mut steps = std::mem::take(&mut self.steps);
        let mut found = None;
        while let Some((_, node)) = self.heap.pop() {
            let Some(reached) = self.best.get_mut(&node) else {
                continue;
            };
            if reached.done {
                continue;
            }
            reached.done = true;
            let g = reached.g;
            if target.is_some_and(|(goal, _, _)| goal == node) {
                found = Some(g);
                break;
            }
            self.expanded += 1;
            steps.clear();
            let mut keep = |step: crate::graph::GraphMove| {
                if region.contains(&chunk_of(step.feet)) {
                    steps.push((step.node, step.feet, step.cost));
                }
            };
            match direction {
                Direction::Forward => graph.for_each_move(node, costs, &mut keep),
                Direction::Backward => graph.for_each_incoming(node, costs, &mut keep),
            }
            for &(next, feet, cost) in &steps {
                let g = g + u64::from(cost);
                let better = Reached {
                    g,
                    parent: node,
                    done: false,
                };
                match self.best.entry(next) {
                    Entry::Occupied(mut known) => {
                        if g >= known.get().g {
                            continue;
                        }
                        known.insert(better);
                    }
                    Entry::Vacant(vacant) => {
                        vacant.insert(better);
                    }
                }
                self.heap.push(g + estimate(feet), g, next);
            }
        }
        self.steps = steps;
        found
    }

    /// The cost of the last run's route to `node`, if it reached it.
    pub(super) fn cost(&self, node: NodeId) -> Option<u64> {
        self.best.get(&node).map(|reached| reached.g)
    }

    /// The nodes of the last run's route from its source to `node`: for a forward run, from
    /// the source to `node`; for a backward run, from `node` to the source. Appended to `out`
    /// without `node`'s end that is already there: a forward leg is appended without its
    /// source, a backward leg without `node`.
    pub(super) fn append_leg(
        &self,
        graph: &NavGraph,
        node: NodeId,
        direction: Direction,
        out: &mut Vec<IVec3>,
    ) {
        let mut chain = Vec::new();
        let mut at = node;
        while let Some(&Reached { parent, .. }) = self.best.get(&at) {
            if parent == crate::graph::NO_NODE {
                break;
            }
            chain.push(at);
            at = parent;
        }
        match direction {
            // `chain` runs from `node` back to just after the source.
            Direction::Forward => out.extend(chain.iter().rev().map(|&id| graph.feet(id))),
            // `chain` runs from `node` toward the source, which it leaves out: the leg is
            // every node after `node`, so drop `node` and add the source.
            Direction::Backward => {
                out.extend(chain.iter().skip(1).map(|&id| graph.feet(id)));
                if at != node {
                    out.push(graph.feet(at));
                }
            }
        }
    }
}
