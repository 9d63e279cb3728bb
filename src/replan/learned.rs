//! [`Bounds`]: lower bounds on the cost to one goal, learned from earlier searches and kept
//! admissible and consistent through block changes.
//!
//! The bounds start from a backward A* from the goal (see `adapted.rs`): every node it
//! expanded knows its exact cost to the goal, and every other node `n` costs at least
//! `K - est(start, n)`, where `K` is the smallest key left in the search's open set when it
//! stopped, at least the cost it found from its start (an A* with a consistent heuristic
//! expands every node whose cost plus estimate is below that key; Adaptive
//! A*, Koenig and Likhachev 2005, learns from a forward search the same way). Together they
//! make a consistent heuristic, so a search over them expands no node twice and stays
//! optimal.
//!
//! Block changes make moves dearer or remove them, which keeps every bound a lower bound, or
//! add moves and make moves cheaper, which may not: after a batch of changes, a node `u`
//! whose moves changed is a *source* when `cost(u, v) + H(v) < H(u)` for one of its moves
//! (the bounds are no longer consistent across that move), with the value
//! `val(u) = min over its moves of cost(u, v) + H(v)`. Any route from a node `n` either uses
//! no move out of a source, and then costs at least `H(n)` (the bounds are consistent along
//! it), or its last move out of a source leaves some `u`, and then costs at least
//! `est(n, u) + val(u)`. So
//!
//! `h(n) = max(est(n, goal), min(H(n), min over sources u of est(n, u) + val(u)))`
//!
//! is admissible, and it is consistent too (a minimum of consistent functions, since `val(u)`
//! never exceeds the cost of a move out of `u` plus the bound at its end). Batches pile up:
//! each bound remembers the batch it was learned after, and the sources of every later batch
//! apply to it. A few changed cells make a few sources, and a bounding box per batch skips
//! them for nodes too far away to be lowered; after [`MAX_SOURCES`] sources the bounds
//! start over from the plain estimate (consistent on any graph), and the next searches learn
//! again.

use std::collections::VecDeque;

use ahash::AHashSet;
use glam::IVec3;

use crate::graph::{GraphUpdate, NavGraph, NodeId};
use crate::moves::agent::MoveCosts;
use crate::search::heuristic::Estimator;

/// Sources kept, over all batches, before the bounds start over.
const MAX_SOURCES: usize = 512;

/// Nodes [`Bounds::apply`] lowers before the rest become sources.
const LOWERINGS: usize = 64;

/// The largest bound kept: larger ones are kept as this.
const MAX_BOUND: u64 = (1 << BOUND_BITS) - 1;

/// Bits of a learned bound in its word; the epoch takes the others.
const BOUND_BITS: u32 = 40;

/// Epochs stay below this (the bounds start over before).
const EPOCH_LIMIT: u32 = (1 << (64 - BOUND_BITS)) - 2;

/// A node whose moves broke the bounds' consistency: its feet and `val`.
#[derive(Debug, Clone, Copy)]
struct Source {
    feet: IVec3,
    value: u64,
}

/// The sources of one batch of changes: `sources[first..end]`, the box around their feet,
/// and their least value, so that nodes the batch cannot lower are skipped in a few
/// instructions.
#[derive(Debug, Clone, Copy)]
struct Batch {
    first: usize,
    end: usize,
    low: IVec3,
    high: IVec3,
    least: u64,
}

/// The bound of every node the first plan did not expand: `cost - est(start, n)`, with
/// `cost` the smallest key the plan left.
#[derive(Debug, Clone, Copy)]
struct Base {
    start: IVec3,
    cost: u64,
}

/// Lower bounds on the cost from each node to one goal; see the [module docs](self).
#[derive(Debug, Clone)]
pub(super) struct Bounds {
    estimator: Estimator,
    goal: IVec3,
    /// Node `n`'s learned bound (low 40 bits) and the epoch it was learned in (high 24 bits;
    /// the batches after it apply to it), valid when the epoch is at least `floor`. One word
    /// per node: a search reads one cache line per node it estimates. A bound above
    /// [`MAX_BOUND`] is kept as `MAX_BOUND`, still a lower bound, and still consistent (the
    /// smaller of a consistent heuristic and a constant is consistent).
    learned: Vec<u64>,
    /// Bounds learned before this epoch are forgotten.
    floor: u32,
    /// The epoch now: `floor` plus the number of batches kept.
    current: u32,
    /// The bound of the nodes without one learned, from the first plan; `None` once the
    /// bounds started over (the plain estimate then).
    base: Option<Base>,
    /// `batches[i]` moved the epoch from `floor + i` to `floor + i + 1`.
    batches: Vec<Batch>,
    sources: Vec<Source>,
    /// Reused by [`Bounds::apply`]: the nodes still to check, and the same as a set.
    pending: VecDeque<NodeId>,
    queued: AHashSet<NodeId>,
    /// [`LOWERINGS`] and [`MAX_SOURCES`]; tests set smaller ones to reach every path.
    lowerings: usize,
    max_sources: usize,
}

impl Bounds {
    /// Bounds for no goal yet, estimating with `estimator`.
    pub(super) fn new(estimator: Estimator) -> Self {
        Self {
            estimator,
            goal: IVec3::ZERO,
            learned: Vec::new(),
            floor: 1,
            current: 1,
            base: None,
            batches: Vec::new(),
            sources: Vec::new(),
            pending: VecDeque::new(),
            queued: AHashSet::new(),
            lowerings: LOWERINGS,
            max_sources: MAX_SOURCES,
        }
    }

    /// Forgets every bound: the plain estimate to `goal` for every node of `graph`.
    pub(super) fn reset(&mut self, graph: &NavGraph, goal: IVec3) {
        self.goal = goal;
        self.start_over();
        self.fit(graph);
    }

    /// Makes room for the node ids of `graph`.
    fn fit(&mut self, graph: &NavGraph) {
        let bound = graph.id_bound();
        if self.learned.len() < bound {
            // Room for updates to add nodes without copying every bound on a replan.
            self.learned
                .reserve(bound + bound / 4 + 1024 - self.learned.len());
            self.learned.resize(bound, 0);
        }
    }

    /// Forgets every bound learned (the plain estimate is consistent on any graph).
    fn start_over(&mut self) {
        if self.current >= EPOCH_LIMIT {
            self.learned.fill(0);
            self.current = 0;
        }
        self.current += 1;
        self.floor = self.current;
        self.base = None;
        self.batches.clear();
        self.sources.clear();
    }

    /// The lower bound on the cost from node `id`, at `feet`, to the goal.
    #[inline]
    pub(super) fn estimate(&self, id: NodeId, feet: IVec3) -> u64 {
        let word = self.learned[id as usize];
        let epoch = (word >> BOUND_BITS) as u32;
        // A learned bound is never below the plain estimate; the base may be, and so may a
        // bound lowered by a batch.
        let (mut bound, learned_in, mut below_plain) = if epoch >= self.floor {
            let bound = word & MAX_BOUND;
            (bound, epoch, bound == MAX_BOUND)
        } else if let Some(base) = self.base {
            (
                base.cost
                    .saturating_sub(self.estimator.between(base.start, feet)),
                self.floor,
                true,
            )
        } else {
            return self.estimator.between(feet, self.goal);
        };
        for batch in &self.batches[(learned_in - self.floor) as usize..] {
            let nearest = feet.clamp(batch.low, batch.high);
            if self.estimator.between(feet, nearest) + batch.least >= bound {
                continue;
            }
            below_plain = true;
            for source in &self.sources[batch.first..batch.end] {
                bound = bound.min(self.estimator.between(feet, source.feet) + source.value);
            }
        }
        if below_plain {
            bound.max(self.estimator.between(feet, self.goal))
        } else {
            bound
        }
    }

    /// The goal.
    #[inline]
    pub(super) fn goal(&self) -> IVec3 {
        self.goal
    }

    /// Learns `bound` for node `id` (a bound for the graph as it is now).
    #[inline]
    pub(super) fn learn(&mut self, id: NodeId, bound: u64) {
        self.learned[id as usize] = (u64::from(self.current) << BOUND_BITS) | bound.min(MAX_BOUND);
    }

    /// Learns the bound of every node a first plan did not expand: `key - est(start, n)`,
    /// where `key` is the smallest key left in the plan's open set when it stopped
    /// (`u64::MAX` when it was empty: the nodes not expanded then cannot reach the goal).
    pub(super) fn learn_base(&mut self, start: IVec3, key: u64) {
        // Kept within the learned bounds' range, like them.
        self.base = Some(Base {
            start,
            cost: key.min(MAX_BOUND),
        });
    }

    /// The smallest cost of a move out of `id` plus the bound at its end: a lower bound on
    /// the cost from `id` to the goal whenever the bounds at the ends are; `u64::MAX` for a
    /// node without moves.
    fn lookahead(&self, graph: &NavGraph, costs: &MoveCosts, id: NodeId) -> u64 {
        let mut value = u64::MAX;
        graph.for_each_move(id, costs, |step| {
            let through = u64::from(step.cost).saturating_add(self.estimate(step.node, step.feet));
            value = value.min(through);
        });
        value
    }

    /// Keeps the bounds admissible and consistent after `update` changed `graph` (see the
    /// [module docs](self)); `goal` is the goal's node, whose bound stays 0. Returns how many
    /// sources this batch made.
    ///
    /// Only the moves out of changed nodes differ, so only they can break consistency. Each
    /// changed node takes its lookahead (the cheapest move plus the bound at its end) as its
    /// bound when that is higher (an added node starts from the plain estimate): consistency
    /// across a node's moves in does not suffer when its bound rises. A node whose lookahead
    /// is lower takes it too, and then the nodes with moves into it are checked in turn, for
    /// at most [`LOWERINGS`] lowered nodes; the nodes still to check then become the batch's
    /// sources (when their lookahead is below their bound), so that a change that makes a
    /// real shortcut costs a bounded repair here and lowers the bounds around it through the
    /// sources.
    pub(super) fn apply(
        &mut self,
        graph: &NavGraph,
        costs: &MoveCosts,
        update: &GraphUpdate,
        goal: NodeId,
    ) -> usize {
        self.fit(graph);
        for &id in &update.removed {
            self.learned[id as usize] = 0;
        }
        // An added node's bound starts as high as it gets and falls to its lookahead: too
        // high a bound is caught like any other (the node's lookahead is below it), and
        // every node with a move into an added node is a changed node, checked below.
        for &id in &update.added {
            self.learn(id, MAX_BOUND);
        }
        // Added nodes next to each other: each round lets each see its neighbours' bounds.
        for _ in 0..3 {
            for &id in &update.added {
                if id != goal && graph.is_live(id) {
                    let value = self.lookahead(graph, costs, id);
                    self.learn(id, value);
                }
            }
        }
        let mut pending = std::mem::take(&mut self.pending);
        let mut queued = std::mem::take(&mut self.queued);
        pending.clear();
        queued.clear();
        for &id in &update.changed {
            if id != goal && graph.is_live(id) && queued.insert(id) {
                pending.push_back(id);
            }
        }
        let mut lowered = 0;
        while lowered < self.lowerings {
            let Some(id) = pending.pop_front() else {
                break;
            };
            queued.remove(&id);
            let value = self.lookahead(graph, costs, id);
            let own = self.estimate(id, graph.feet(id));
            if value == own {
                continue;
            }
            self.learn(id, value);
            if value < own {
                lowered += 1;
                graph.for_each_incoming(id, costs, |step| {
                    if step.node != goal && queued.insert(step.node) {
                        pending.push_back(step.node);
                    }
                });
            }
        }
        let first = self.sources.len();
        let (mut low, mut high) = (IVec3::MAX, IVec3::MIN);
        let mut least = u64::MAX;
        for &id in &pending {
            let feet = graph.feet(id);
            let value = self.lookahead(graph, costs, id);
            if value < self.estimate(id, feet) {
                self.sources.push(Source { feet, value });
                low = low.min(feet);
                high = high.max(feet);
                least = least.min(value);
            }
        }
        self.pending = pending;
        self.queued = queued;
        let made = self.sources.len() - first;
        if made == 0 {
            return 0;
        }
        if self.sources.len() > self.max_sources || self.current >= EPOCH_LIMIT {
            self.start_over();
            return made;
        }
        self.batches.push(Batch {
            first,
            end: self.sources.len(),
            low,
            high,
            least,
        });
        self.current += 1;
        made
    }
}

#[cfg(all(test, feature = "terrain"))]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    use std::time::Instant;

    use glam::IVec3;

    use super::super::adapted::AdaptedSearch;
    use super::super::test_worlds::{cell, floor_and_blocks};
    use crate::graph::{NavGraph, NodeId};
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::terrain::SplitMix64;
    use crate::world::chunked::Block;

    const KINDS: [Block; 9] = [
        Block::Air,
        Block::Air,
        Block::Air,
        Block::Solid,
        Block::Solid,
        Block::Water,
        Block::Lava,
        Block::SlowFloor,
        Block::Ladder,
    ];

    /// The exact cost from every node to `goal` (`u64::MAX` when it cannot reach it), by a
    /// Dijkstra backward over the graph's moves in.
    fn exact_costs(graph: &NavGraph, costs: &MoveCosts, goal: NodeId) -> Vec<u64> {
        let mut cost = vec![u64::MAX; graph.id_bound()];
        let mut heap = BinaryHeap::new();
        cost[goal as usize] = 0;
        heap.push(Reverse((0u64, goal)));
        while let Some(Reverse((at, node))) = heap.pop() {
            if at > cost[node as usize] {
                continue;
            }
            graph.for_each_incoming(node, costs, |step| {
                let through = at + u64::from(step.cost);
                if through < cost[step.node as usize] {
                    cost[step.node as usize] = through;
                    heap.push(Reverse((through, step.node)));
                }
            });
        }
        cost
    }

    /// The bounds are admissible (never above the exact cost to the goal) and consistent
    /// (never above a move's cost plus the bound at its end; the goal's is 0) on every node
    /// and move of the graph, after a plan and after each of many random block changes on
    /// random small worlds (batches pile up, lowerings run out and sources are made), and a
    /// search with them finds the exact cost. Returns how many batches made sources.
    fn check_bounds(seed: u64) -> usize {
        let mut rng = SplitMix64::new(seed);
        let size = IVec3::new(12, 7, 12);
        let mut world = floor_and_blocks(&mut rng, size, &KINDS, 60);
        let agent = Agent::default().with_max_drop(1 + rng.below(3) as u32);
        let costs = MoveCosts::default().with_climb(rng.below(3) as u32);
        let mut graph = NavGraph::compile(&world, &agent).unwrap();
        let nodes: Vec<NodeId> = graph.nodes().collect();
        if nodes.len() < 2 {
            return 0;
        }
        let goal = nodes[rng.below(nodes.len() as u64) as usize];
        let goal_feet = graph.feet(goal);
        let start = nodes[rng.below(nodes.len() as u64) as usize];
        let mut search = AdaptedSearch::new(&agent, costs).unwrap();
        // Few lowerings, so that changes make sources, and few sources before the bounds
        // start over, in some seeds.
        search.bounds.lowerings = rng.below(4) as usize;
        search.bounds.max_sources = [4, 16, super::MAX_SOURCES][rng.below(3) as usize];
        let _ = search.plan(&graph, start, goal, Instant::now());
        let mut with_sources = 0;
        for round in 0..25 {
            let exact = exact_costs(&graph, &costs, goal);
            for id in graph.nodes() {
                let feet = graph.feet(id);
                let bound = search.bounds.estimate(id, feet);
                assert!(
                    bound <= exact[id as usize],
                    "seed {seed} round {round}: admissible"
                );
                if id == goal {
                    assert_eq!(bound, 0, "seed {seed} round {round}");
                }
                graph.for_each_move(id, &costs, |step| {
                    let there = search.bounds.estimate(step.node, step.feet);
                    assert!(
                        bound <= u64::from(step.cost) + there,
                        "seed {seed} round {round}: consistent across {feet} -> {}",
                        step.feet
                    );
                });
            }
            // A forward search from a random node, checked against the exact cost.
            let from = graph
                .nodes()
                .nth(rng.below(graph.node_count() as u64) as usize);
            if let Some(from) = from {
                let result = search.search(&graph, graph.feet(from)).unwrap();
                let expected = exact[from as usize];
                assert_eq!(
                    result.cost,
                    (expected != u64::MAX).then_some(expected),
                    "seed {seed} round {round}: search"
                );
            }
            let mut changed = Vec::new();
            for _ in 0..=rng.below(6) {
                let at = cell(&mut rng, size);
                if at == goal_feet || at == goal_feet - IVec3::Y || at == goal_feet + IVec3::Y {
                    continue;
                }
                world
                    .set(at, KINDS[rng.below(KINDS.len() as u64) as usize])
                    .unwrap();
                changed.push(at);
            }
            let update = graph.update(&world, changed).unwrap();
            let Some(goal_now) = graph.node(goal_feet) else {
                return with_sources;
            };
            assert_eq!(goal_now, goal);
            if search.bounds.apply(&graph, &costs, &update, goal) > 0 {
                with_sources += 1;
            }
        }
        with_sources
    }

    #[test]
    fn bounds_stay_admissible_and_consistent_through_random_changes() {
        let with_sources: usize = (0..150).map(check_bounds).sum();
        assert!(
            with_sources > 50,
            "only {with_sources} batches made sources"
        );
    }
}
