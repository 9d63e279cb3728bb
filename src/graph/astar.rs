//! A* over a [`NavGraph`]: per-node records in one flat array indexed by node id, a search
//! stamp instead of clearing between queries, the radix-heap open set, and no allocation per
//! expansion.

use std::time::Instant;

use glam::IVec3;

use super::{CODE_BITS, CODE_MASK, NO_NODE, NavGraph, NodeId, Pricing, SLOT_DIRECTIONS};
use crate::error::{Error, Result};
use crate::moves::agent::MoveCosts;
use crate::search::open::OpenSet;
use crate::search::{
    BlockGoal, Budget, Goal, SearchOptions, SearchResult, SearchStats, SearchStatus,
};
use crate::world::InvalidFeet;

/// What the search knows of one node, in 16 bytes (four to a cache line). A record belongs
/// to the current search only when its `stamp` is the search's (open) or one more (closed);
/// any other stamp means "not seen". The heuristic is not kept: it is recomputed from the
/// feet position where needed, which is cheaper than the memory it would take.
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    g: u64,
    parent: NodeId,
    stamp: u32,
}

/// A reusable A* over a [`NavGraph`] for one set of [`MoveCosts`].
///
/// Keep one per thread and call it for every query on any graph: its records and open set
/// keep their memory between searches, and a stamp per search replaces clearing them. It
/// takes the same [`SearchOptions`], [`Goal`]s and budgets as
/// [`Pathfinder`](crate::Pathfinder) and returns the same [`SearchResult`]; the routes'
/// costs are the same, since the graph holds exactly the generator's moves.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions, SearchStatus};
/// use voxnav::graph::{GraphSearch, NavGraph};
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(6, 3, 1))?;
/// world.fill(IVec3::new(0, 0, 0), IVec3::new(5, 0, 0), Block::Solid)?;
/// let graph = NavGraph::compile(&world, &Agent::default())?;
/// let mut search = GraphSearch::new(MoveCosts::default())?;
/// let result = search.find_path(&graph, IVec3::new(0, 1, 0), IVec3::new(5, 1, 0), &SearchOptions::default())?;
/// assert_eq!(result.status, SearchStatus::Found);
/// assert_eq!(result.cost, Some(50));
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct GraphSearch {
    costs: MoveCosts,
    pricing: Option<Pricing>,
    records: Vec<Record>,
    /// The open stamp of the current search; `stamp + 1` marks a closed node. Always even.
    stamp: u32,
    open: OpenSet,
    /// The `dx`, `dz` of each move slot.
    offsets: [(i32, i32); super::SLOTS],
    /// The rise of each shape code, for the graph last searched.
    rises: [i32; 1 << CODE_BITS],
}

impl GraphSearch {
    /// A search pricing moves at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the costs are out of range ([`MoveCosts::validate`]).
    pub fn new(costs: MoveCosts) -> Result<Self> {
        costs.validate()?;
        Ok(Self {
            costs,
            pricing: None,
            records: Vec::new(),
            stamp: 0,
            open: OpenSet::default(),
            offsets: [(0, 0); super::SLOTS],
            rises: [0; 1 << CODE_BITS],
        })
    }

    /// The move costs.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.costs
    }

    /// Sizes the search's records for `graph` now rather than in the first search on it, so
    /// that no query pays for the memory (the first search on a larger graph does this
    /// itself).
    pub fn reserve_for(&mut self, graph: &NavGraph) {
        if self.records.len() < graph.id_bound() {
            self.records.resize(graph.id_bound(), Record::default());
        }
    }

    /// The feet positions the last search on `graph` expanded, in id order: what it explored.
    pub fn explored<'a>(&'a self, graph: &'a NavGraph) -> impl Iterator<Item = IVec3> + 'a {
        let closed = self.stamp + 1;
        self.records
            .iter()
            .enumerate()
            .take(graph.id_bound())
            .filter(move |(_, r)| r.stamp == closed)
            .map(|(id, _)| graph.feet(id as NodeId))
    }

    /// Finds a route over `graph` from the feet position `start` to the feet position `goal`.
    ///
    /// # Errors
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either is not a node of the
    /// graph ([`InvalidFeet::OutOfWorld`] outside its bounds, else
    /// [`InvalidFeet::NotInGraph`]), [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`] for
    /// empty budgets.
    pub fn find_path(
        &mut self,
        graph: &NavGraph,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.search(graph, start, &BlockGoal(goal), options)
    }

    /// Searches `graph` from the feet position `start` until `goal` is reached, a budget runs
    /// out, or every node reachable from `start` has been expanded.
    ///
    /// # Errors
    /// As [`GraphSearch::find_path`]; the goal is checked only when it names an exact target.
    pub fn search<G: Goal + ?Sized>(
        &mut self,
        graph: &NavGraph,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        let start_id =
            node_of(graph, start).map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        if let Some(target) = goal.exact_target() {
            node_of(graph, target).map_err(|reason| Error::InvalidGoal {
                pos: target,
                reason,
            })?;
        }
        if options.max_nodes == Some(0) {
            return Err(Error::ZeroBudget);
        }
        if options.max_time.is_some_and(|t| t.is_zero()) {
            return Err(Error::ZeroTimeBudget);
        }
        self.prepare(graph);
        let pricing = self
            .pricing
            .take()
            .unwrap_or_else(|| Pricing::new(graph, self.costs));
        let result = self.run(graph, &pricing, start_id, goal, options, started);
        self.pricing = Some(pricing);
        Ok(result)
    }

    /// Sizes the records for `graph`, moves to a fresh stamp, and refreshes the pricing and
    /// the slot tables.
    fn prepare(&mut self, graph: &NavGraph) {
        self.reserve_for(graph);
        if self.stamp >= u32::MAX - 3 {
            for record in &mut self.records {
                record.stamp = 0;
            }
            self.stamp = 0;
        }
        self.stamp += 2;
        if !self
            .pricing
            .as_ref()
            .is_some_and(|p| p.fits(graph, &self.costs))
        {
            self.pricing = Some(Pricing::new(graph, self.costs));
        }
        for (offset, direction) in self.offsets.iter_mut().zip(SLOT_DIRECTIONS) {
            *offset = (direction.x, direction.z);
        }
        for (code, shape) in graph.shapes.iter().enumerate() {
            self.rises[code + 1] = shape.dy;
        }
    }

    fn run<G: Goal + ?Sized>(
        &mut self,
        graph: &NavGraph,
        pricing: &Pricing,
        start: NodeId,
        goal: &G,
        options: &SearchOptions,
        started: Instant,
    ) -> SearchResult {
        let estimator = options.heuristic.estimator(&graph.agent, &self.costs);
        let budget = Budget::new(options, started);
        let (open_stamp, closed_stamp) = (self.stamp, self.stamp + 1);
        let min = graph.bounds.min;

        let mut stats = SearchStats::default();
        let start_feet = graph.feet(start);
        let start_h = goal.estimate(start_feet, &estimator);
        self.records[start as usize] = Record {
            g: 0,
            parent: NO_NODE,
            stamp: open_stamp,
        };
        self.open.reset(start_h);
        self.open.push(start_h, 0, start);
        stats.generated = 1;
        let (mut best, mut best_h, mut best_g) = (start, start_h, 0u64);
        let mut budget_hit = false;

        while let Some((_, node)) = self.open.pop() {
            let current = self.records[node as usize];
            // The queue is exact and a node's `h` never changes, so the entry with a node's
            // lowest `g` (the current one) pops before its older ones, which find it closed.
            if current.stamp != open_stamp {
                continue;
            }
            let here = graph.nodes[node as usize];
            let feet = min + IVec3::new(i32::from(here.x), i32::from(here.y), i32::from(here.z));
            if goal.is_reached(feet) {
                return self.finish(graph, SearchStatus::Found, node, stats, started);
            }
            if budget.exhausted(stats.expanded) {
                budget_hit = true;
                break;
            }
            self.records[node as usize].stamp = closed_stamp;
            stats.expanded += 1;

            let mut bits = here.out;
            while bits != 0 {
                let slot = (bits.trailing_zeros() / CODE_BITS) as usize;
                let shift = slot as u32 * CODE_BITS;
                let code = (bits >> shift) & CODE_MASK;
                bits &= !(CODE_MASK << shift);
                let (dx, dz) = self.offsets[slot];
                let dy = self.rises[code as usize];
                let column = graph.column_index(i32::from(here.x) + dx, i32::from(here.z) + dz);
                let target = graph.find_in_column(column, (i32::from(here.y) + dy) as u16);
                // No move back to the parent can improve it: its cost only adds to the
                // parent's own (costs are never negative).
                if target == NO_NODE || target == current.parent {
                    continue;
                }
                let cost = pricing.base(slot, code) + graph.entry_cost(target, &self.costs);
                let g = current.g + u64::from(cost);
                let record = &mut self.records[target as usize];
                // Open and closed stamps differ only in the lowest bit.
                if record.stamp >> 1 == open_stamp >> 1 && g >= record.g {
                    continue;
                }
                *record = Record {
                    g,
                    parent: node,
                    stamp: open_stamp,
                };
                let h = goal.estimate(feet + IVec3::new(dx, dy, dz), &estimator);
                self.open.push(g + h, g, target);
                stats.generated += 1;
                if (h, g) < (best_h, best_g) {
                    (best, best_h, best_g) = (target, h, g);
                }
            }
        }

        if budget_hit {
            self.finish(graph, SearchStatus::Partial, best, stats, started)
        } else {
            stats.elapsed = started.elapsed();
            SearchResult::unreachable(stats)
        }
    }

    fn finish(
        &self,
        graph: &NavGraph,
        status: SearchStatus,
        end: NodeId,
        mut stats: SearchStats,
        started: Instant,
    ) -> SearchResult {
        let mut path = Vec::new();
        let mut node = end;
        while node != NO_NODE {
            path.push(graph.feet(node));
            node = self.records[node as usize].parent;
        }
        path.reverse();
        stats.elapsed = started.elapsed();
        SearchResult {
            status,
            path,
            cost: Some(self.records[end as usize].g),
            stats,
        }
    }
}

/// The node of `feet`, or why there is none.
fn node_of(graph: &NavGraph, feet: IVec3) -> Result<NodeId, InvalidFeet> {
    if !graph.bounds.contains(feet) {
        return Err(InvalidFeet::OutOfWorld);
    }
    graph.node(feet).ok_or(InvalidFeet::NotInGraph)
}
