//! A* over a [`NavGraph`] on the one search loop (`search::core`): the graph is the move
//! source (`source.rs`), per-node records live in one flat array indexed by node id with a
//! search stamp instead of clearing between queries (`records.rs`), and a node's moves skip
//! the detours its parent dominates (`detours.rs`). No allocation per expansion. The same
//! search can be kept inside a few chunk columns (`within.rs`).

mod detours;
mod records;
mod source;
mod within;

use std::time::Instant;

use glam::IVec3;

use self::detours::DetourTable;
use self::records::{Narrow, Record, Records, Wide};
use self::source::{Backward, Forward};
use super::{CODE_BITS, NO_NODE, NavGraph, NodeId, Pricing};
use crate::error::{Error, Result};
use crate::moves::agent::MoveCosts;
use crate::moves::terrain_cost;
use crate::search::core::run;
use crate::search::heuristic::{Estimator, Octile};
use crate::search::open::OpenSet;
use crate::search::{BlockGoal, Budget, Goal, SearchOptions, SearchResult, SearchStats};

/// A reusable A* over a [`NavGraph`] for one set of [`MoveCosts`].
///
/// Keep one per thread and call it for every query on any graph: its records and open set
/// keep their memory between searches, and a stamp per search replaces clearing them. It
/// takes the same [`SearchOptions`], [`Goal`]s and budgets as
/// [`Pathfinder`](crate::engine::Pathfinder) and returns the same [`SearchResult`]; the routes'
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
///
/// Its `Debug` output is a summary (costs, record counts and bytes), not its records.
#[derive(Clone)]
pub struct GraphSearch {
    core: Core,
    narrow: Records<Narrow>,
    wide: Records<Wide>,
    /// Whether the last search used the narrow records.
    last_narrow: bool,
}

impl std::fmt::Debug for GraphSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes = self.narrow.entries.capacity() * std::mem::size_of::<Narrow>()
            + self.wide.entries.capacity() * std::mem::size_of::<Wide>();
        f.debug_struct("GraphSearch")
            .field("costs", &self.core.costs)
            .field("narrow_records", &self.narrow.entries.len())
            .field("wide_records", &self.wide.entries.len())
            .field("record_bytes", &bytes)
            .finish_non_exhaustive()
    }
}

/// The parts of a search that do not depend on the record layout.
#[derive(Debug, Clone)]
struct Core {
    costs: MoveCosts,
    /// The prices of the graph last searched.
    pricing: Pricing,
    open: OpenSet,
    /// The rise of each shape code, for the graph last searched.
    rises: [i32; 1 << CODE_BITS],
    /// The dominated detours at `pricing`.
    detours: DetourTable,
}

impl GraphSearch {
    /// A search pricing moves at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the costs are out of range ([`MoveCosts::validate`]).
    pub fn new(costs: MoveCosts) -> Result<Self> {
        costs.validate()?;
        Ok(Self::pricing_through_graph(costs))
    }

    /// A search for costs that are not validated, for callers that only search backward
    /// ([`GraphSearch::search_backward`]): its moves are priced by
    /// [`NavGraph::for_each_incoming`], whose prices saturate, so any costs give answers.
    pub(crate) fn pricing_through_graph(costs: MoveCosts) -> Self {
        Self {
            core: Core {
                costs,
                pricing: Pricing::none(costs),
                open: OpenSet::default(),
                rises: [0; 1 << CODE_BITS],
                detours: DetourTable::default(),
            },
            narrow: Records::default(),
            wide: Records::default(),
            last_narrow: true,
        }
    }

    /// The move costs.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.core.costs
    }

    /// Sizes the search's records for `graph` now rather than in the first search on it, and
    /// maps their pages, so that no query pays for the memory (the first search on a larger
    /// graph sizes them itself, in zeroed memory whose pages the system maps as the search
    /// first reaches them).
    pub fn reserve_for(&mut self, graph: &NavGraph) {
        self.core.prepare(graph);
        if self.core.narrow_fits(graph) {
            self.narrow.reserve_for(graph);
        } else {
            self.wide.reserve_for(graph);
        }
    }

    /// The feet positions the last search on `graph` expanded, in id order: what it explored.
    pub fn explored<'a>(&'a self, graph: &'a NavGraph) -> impl Iterator<Item = IVec3> + 'a {
        let narrow = self.last_narrow.then(|| self.narrow.explored(graph));
        let wide = (!self.last_narrow).then(|| self.wide.explored(graph));
        narrow
            .into_iter()
            .flatten()
            .chain(wide.into_iter().flatten())
    }

    /// Finds a route over `graph` from the feet position `start` to the feet position `goal`.
    ///
    /// # Errors
    /// As [`NavGraph::check_current`]: [`Error::StaleGraph`] once the graph's world has
    /// changed without it, [`Error::GraphBroken`] after a failed update.
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either is not a node of the
    /// graph, with the reason [`NavGraph::node_or_reason`] gives (an unloaded chunk, outside
    /// the world or its height, else [`InvalidFeet::NotInGraph`](crate::world::InvalidFeet::NotInGraph)),
    /// [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`] for empty budgets.
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
    /// A goal that is one block ([`Goal::block_target`]) is searched with the same answers,
    /// estimated in the graph's coordinates.
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
        graph.check_current()?;
        let start_id = graph
            .node_or_reason(start)
            .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        if let Some(target) = goal.exact_target() {
            graph
                .node_or_reason(target)
                .map_err(|reason| Error::InvalidGoal {
                    pos: target,
                    reason,
                })?;
        }
        // The search runs in the graph's coordinates (relative to its origin).
        let min = graph.origin;
        let estimator = options.heuristic.estimator(&graph.agent, &self.core.costs);
        let with = (options, &estimator);
        match (goal.block_target(), estimator.octile()) {
            (Some(target), Some(octile)) => {
                let goal = OctileNodeGoal {
                    target: target - min,
                    octile,
                };
                self.search_from(graph, start_id, &goal, with)
            }
            (Some(target), None) => {
                self.search_from(graph, start_id, &NodeGoal(target - min), with)
            }
            (None, _) => self.search_from(graph, start_id, &Shifted { goal, min }, with),
        }
    }

    /// A search backward from node `target` over the moves into each node (see
    /// [`NavGraph::for_each_incoming`]), on the same loop as every other search: every node it
    /// expands learns its exact cost *to* `target` ([`GraphSearch::cost_to_target`]), and its
    /// record's parent is the next node of a cheapest route there
    /// ([`GraphSearch::toward_target`]). It stops at the first node `goal` reaches (not
    /// expanded), or once no node is left whose cost is at most `radius` (when given). `goal` is asked
    /// about world feet positions and estimates with `estimator`; the nodes expanded are
    /// appended to `expanded` in order. Returns the node `goal` reached, if any, and the
    /// counters.
    pub(crate) fn search_backward<G: Goal + ?Sized>(
        &mut self,
        graph: &NavGraph,
        target: NodeId,
        goal: &G,
        estimator: &Estimator,
        radius: Option<u64>,
        expanded: Option<&mut Vec<NodeId>>,
    ) -> (Option<NodeId>, SearchStats) {
        let started = Instant::now();
        // The parents of wide records are node ids, whichever way the moves go.
        self.last_narrow = false;
        let mut records = self.wide.start(graph, target);
        let (costs, open) = (&self.core.costs, &mut self.core.open);
        let budget = Budget::new(&SearchOptions::default(), started);
        // A search with no radius tests none per move.
        let ended = match radius {
            Some(radius) => {
                let mut source = Backward::<true> {
                    graph,
                    costs,
                    radius,
                    expanded,
                };
                run::<_, _, _, false>(
                    &mut records,
                    &mut source,
                    open,
                    target,
                    goal,
                    estimator,
                    &budget,
                )
            }
            None => {
                let mut source = Backward::<false> {
                    graph,
                    costs,
                    radius: u64::MAX,
                    expanded,
                };
                run::<_, _, _, false>(
                    &mut records,
                    &mut source,
                    open,
                    target,
                    goal,
                    estimator,
                    &budget,
                )
            }
        }
        .expect("wide records hold every cost");
        let mut stats = ended.stats;
        stats.elapsed = started.elapsed();
        (ended.found, stats)
    }

    /// The cost from node `node` to the target of the last [`GraphSearch::search_backward`],
    /// when that search reached it (exact when it expanded it).
    pub(crate) fn cost_to_target(&self, node: NodeId) -> Option<u64> {
        self.wide.reached(node).map(Record::g)
    }

    /// The next node from node `node` on a cheapest route to the target of the last
    /// [`GraphSearch::search_backward`] (that search having expanded `node`); [`NO_NODE`] at
    /// the target or where that search did not reach.
    pub(crate) fn toward_target(&self, graph: &NavGraph, node: NodeId) -> NodeId {
        self.wide.reached(node).map_or(NO_NODE, |record| {
            record.parent(graph, &self.core.rises, node)
        })
    }

    /// [`GraphSearch::search`] from the node `start_id` for a checked goal, estimating with
    /// `estimator` (the options' heuristic's, worked out once per search).
    fn search_from<G: Goal + ?Sized>(
        &mut self,
        graph: &NavGraph,
        start_id: NodeId,
        goal: &G,
        (options, estimator): (&SearchOptions, &Estimator),
    ) -> Result<SearchResult> {
        let started = Instant::now();
        // A graph is always bounded.
        options.check_budgets(true)?;
        self.core.prepare(graph);
        self.last_narrow = self.core.narrow_fits(graph);
        // One loop for searches a budget can stop and one, leaner, for those it cannot.
        let budgeted = options.max_nodes.is_some() || options.max_time.is_some();
        let core = &mut self.core;
        let result = match (self.last_narrow, budgeted) {
            (true, true) => {
                let table = &mut self.narrow;
                core.run::<_, _, true>(table, graph, start_id, goal, (options, estimator), started)
            }
            (true, false) => {
                let table = &mut self.narrow;
                core.run::<_, _, false>(table, graph, start_id, goal, (options, estimator), started)
            }
            (false, true) => {
                let table = &mut self.wide;
                core.run::<_, _, true>(table, graph, start_id, goal, (options, estimator), started)
            }
            (false, false) => {
                let table = &mut self.wide;
                core.run::<_, _, false>(table, graph, start_id, goal, (options, estimator), started)
            }
        };
        Ok(result)
    }
}

impl Core {
    /// Refreshes the pricing and the rises for `graph`.
    fn prepare(&mut self, graph: &NavGraph) {
        if !self.pricing.fits(graph, &self.costs) {
            self.pricing = Pricing::new(graph, self.costs);
            self.detours = DetourTable::new(&self.pricing, graph.shapes.len());
        }
        for (code, shape) in graph.shapes.iter().enumerate() {
            self.rises[code + 1] = shape.dy;
        }
    }

    /// Whether every cost a search on `graph` can reach fits the [`Narrow`] records: a route
    /// visits each node at most once, so it has fewer than [`NavGraph::node_count`] moves,
    /// none dearer than the dearest base price plus the terms of every terrain flag the graph
    /// has held plus the largest extra cost it has held. (A record's cost is a route's: the
    /// search stores only costs that improve, so never one of a walk through its own node.)
    fn narrow_fits(&self, graph: &NavGraph) -> bool {
        // `terrain_cost` saturates, which only makes the bound fail.
        let terms =
            u64::from(terrain_cost(graph.terrain_seen, &self.costs)) + u64::from(graph.max_extra);
        let worst = u64::from(self.pricing.max_base) + terms;
        (graph.node_count() as u64)
            .checked_mul(worst)
            .is_some_and(|bound| bound < u64::from(u32::MAX))
    }

    /// One search on the core loop with the graph as its move source; `BUDGETED` when a budget
    /// can stop it (then it keeps the partial route closest to the goal).
    fn run<G: Goal + ?Sized, R: Record, const BUDGETED: bool>(
        &mut self,
        table: &mut Records<R>,
        graph: &NavGraph,
        start: NodeId,
        goal: &G,
        (options, estimator): (&SearchOptions, &Estimator),
        started: Instant,
    ) -> SearchResult {
        let budget = Budget::new(options, started);
        let mut records = table.start(graph, start);
        let mut source = Forward {
            graph,
            pricing: &self.pricing,
            detours: &self.detours,
            costs: &self.costs,
        };
        let ended = run::<_, _, _, BUDGETED>(
            &mut records,
            &mut source,
            &mut self.open,
            start,
            goal,
            estimator,
            &budget,
        )
        .expect("the records hold every cost of the search (see `narrow_fits`)");
        let (records, rises) = (records.records, &self.rises);
        ended.finish(started, |end| {
            let mut path = Vec::new();
            let mut node = end;
            while node != NO_NODE {
                path.push(graph.feet(node));
                node = records[node as usize].parent(graph, rises, node);
            }
            (path, records[end as usize].g())
        })
    }
}

/// A [`BlockGoal`] of a position in a graph, in the graph's coordinates: the same answers (a
/// graph's columns lie within 2^30 blocks of its origin and its heights within 65 535, so
/// its positions differ by amounts that fit `i32`, and the estimate is the estimator's for
/// the same differences), computed without widening to 64 bits.
struct NodeGoal(IVec3);

impl Goal for NodeGoal {
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        feet == self.0
    }
    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        let d = self.0 - feet;
        estimator.delta(d.x.unsigned_abs(), i64::from(d.y), d.z.unsigned_abs())
    }
}

/// A [`NodeGoal`] under the default octile heuristic, whose estimates it computes from the
/// estimator's weights directly: in a graph every distance is below 2^31, where the estimate
/// (in 64 bits) does not saturate, so they are the estimator's own.
struct OctileNodeGoal {
    target: IVec3,
    octile: Octile,
}

impl Goal for OctileNodeGoal {
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        feet == self.target
    }
    #[inline]
    fn estimate(&self, feet: IVec3, _: &Estimator) -> u64 {
        let d = self.target - feet;
        let wide = |v: i32| u64::from(v.unsigned_abs());
        self.octile
            .estimate(wide(d.x), d.y >= 0, wide(d.y), wide(d.z))
    }
}

/// Any goal, asked about positions in the graph's coordinates (relative to `min`).
struct Shifted<'a, G: ?Sized> {
    goal: &'a G,
    min: IVec3,
}

impl<G: Goal + ?Sized> Goal for Shifted<'_, G> {
    #[inline]
    fn is_reached(&self, local: IVec3) -> bool {
        self.goal.is_reached(self.min + local)
    }
    #[inline]
    fn estimate(&self, local: IVec3, estimator: &Estimator) -> u64 {
        self.goal.estimate(self.min + local, estimator)
    }
}
