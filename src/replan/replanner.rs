//! [`Replanner`]: the replanning policy, D* Lite when its repair is cheap, a fresh A* when not.

use std::time::Instant;

use glam::IVec3;

use super::dstar::DStarLite;
use super::table::{Edge, MoveTable};
use crate::error::{Error, Result};
use crate::graph::{GraphSearch, NavGraph, NodeId};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::{SearchOptions, SearchResult, SearchStats, SearchStatus};
use crate::world::VoxelWorld;
use crate::world::chunked::Changes;

/// Which search answered a [`Replanner::replan`]. More methods may be added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReplanMethod {
    /// D* Lite repaired its earlier work within its budget.
    Incremental,
    /// The repair ran over its budget (or there was no earlier plan): a fresh A* answered.
    Fresh,
    /// No move appeared or got cheaper and every move of the rest of the last route is
    /// still there at the same cost, so that rest is still optimal and answered; the repair
    /// of D* Lite's costs for these changes waits for a replan that needs it.
    Kept,
}

/// The answer of [`Replanner::replan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replan {
    /// The new route from the agent's position, as a fresh search would find it (equal cost).
    pub result: SearchResult,
    /// Which search answered.
    pub method: ReplanMethod,
    /// D* Lite expansions spent on this call (also when the fresh A* answered in the end).
    pub repair_expansions: u64,
}

/// Replanning for an agent walking a route in a changing world: D* Lite when its repair is
/// cheap, a fresh A* when it is not (see the [module docs](super) for when each wins), and
/// the rest of the last route when the changes cannot have made any other route cheaper.
///
/// That last rule is exact: when no move appeared and none got cheaper, no route costs less
/// than before; the rest of the last route was optimal from any of its positions (a part
/// of an optimal route is optimal), and when each of its moves is still there at the same
/// cost it still costs what it did, so nothing beats it. The repair of D* Lite's costs is
/// then left for the next replan that needs it.
///
/// Each repair may expand at most [`Replanner::repair_budget`] nodes: `budget_factor` times
/// the size of a fresh search, and never fewer than 256. The size of a fresh search is what
/// the last fresh A* from this replanner expanded, or before there was one, what D* Lite's
/// first plan expanded (a search of the same size from the other end: no route is computed
/// only to be measured). D* Lite's expansions cost a few times an A*
/// expansion, so a factor below 1 keeps the worst case (a repair given up, then a fresh A*)
/// within a small multiple of a fresh search.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts};
/// use voxnav::Replanner;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(30, 4, 9))?;
/// world.fill(IVec3::ZERO, IVec3::new(29, 0, 8), Block::Solid)?;
/// world.track_changes(true);
/// let mut replanner = Replanner::new(Agent::default(), MoveCosts::default())?;
/// let route = replanner.plan(&world, IVec3::new(0, 1, 4), IVec3::new(29, 1, 4))?;
/// assert_eq!(route.cost, Some(290));
/// world.set(IVec3::new(20, 1, 4), Block::Lava)?;
/// let changed: Vec<IVec3> = world.take_changes().positions().collect();
/// let replan = replanner.replan(&world, route.path[5], &changed)?;
/// assert!(replan.result.is_found());
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Replanner {
    dstar: DStarLite,
    astar: GraphSearch,
    budget_factor: f64,
    fresh_expansions: u64,
    /// Whether D* Lite holds a repair given up over its budget, which later calls continue.
    dstar_pending: bool,
    /// The last route answered, for [`ReplanMethod::Kept`].
    route: KeptRoute,
    /// The positions whose surroundings the move table has read for [`KeptRoute::record`].
    ringed: Vec<NodeId>,
}

/// A route answered, by node id, with the cost of each move.
#[derive(Debug, Clone, Default)]
struct KeptRoute {
    nodes: Vec<NodeId>,
    /// `steps[i]`: the cost of the move from `nodes[i]` to `nodes[i + 1]`.
    steps: Vec<u32>,
}

impl KeptRoute {
    /// Records the route of `result` over `graph`; records none unless the route was found
    /// and each of its moves is in `table` (as it is when the answer came from that graph).
    ///
    /// Reads into `table` the moves into every position one move off the route, and so (by
    /// the table's invariant) the moves out of every position up to two moves off it: a
    /// later change there is then known to make no move cheaper or not, and can keep the
    /// route. A search reads most of them anyway; the table skips those read, and positions
    /// in `ringed` (sorted: those of the last route recorded over this table, whose
    /// surroundings were read then; patches keep lists read) are skipped. `ringed` becomes
    /// this route's. Only how often a route is kept depends on these reads: a change to
    /// moves never read is not judged, and goes to the repair.
    fn record(
        &mut self,
        graph: &NavGraph,
        table: &mut MoveTable,
        result: &SearchResult,
        ringed: &mut Vec<NodeId>,
    ) {
        self.nodes.clear();
        self.steps.clear();
        if result.status != SearchStatus::Found {
            return;
        }
        for &feet in &result.path {
            let Some(id) = graph.node(feet) else {
                self.nodes.clear();
                return;
            };
            self.nodes.push(id);
        }
        for &id in &self.nodes {
            if ringed.binary_search(&id).is_ok() {
                continue;
            }
            let count = table.out(graph, id).len();
            for at in 0..count {
                let target = table.out(graph, id)[at].node;
                let _ = table.incoming(graph, target);
            }
        }
        ringed.clone_from(&self.nodes);
        ringed.sort_unstable();
        for pair in self.nodes.windows(2) {
            let step = table
                .out(graph, pair[0])
                .iter()
                .find(|edge| edge.node == pair[1]);
            let Some(step) = step else {
                self.nodes.clear();
                self.steps.clear();
                return;
            };
            self.steps.push(step.cost);
        }
        if result.cost != Some(self.steps.iter().map(|&cost| u64::from(cost)).sum()) {
            self.nodes.clear();
            self.steps.clear();
        }
    }

    /// The rest of the route from `position` and its cost, when `position` is on it and every
    /// move of the rest is in `table` at the cost it had (the route's moves out were read
    /// when it was recorded, and patches keep them).
    fn rest(
        &self,
        graph: &NavGraph,
        table: &MoveTable,
        position: IVec3,
    ) -> Option<(Vec<IVec3>, u64)> {
        let at = graph.node(position)?;
        let first = self.nodes.iter().position(|&id| id == at)?;
        let mut cost = 0u64;
        for (pair, &step) in self.nodes[first..].windows(2).zip(&self.steps[first..]) {
            let kept = Edge {
                node: pair[1],
                cost: step,
            };
            if !table.out_read(pair[0])?.contains(&kept) {
                return None;
            }
            cost += u64::from(step);
        }
        let path = self.nodes[first..]
            .iter()
            .map(|&id| graph.feet(id))
            .collect();
        Some((path, cost))
    }
}

impl Replanner {
    /// The default share of a fresh search's expansions a repair may spend: 0.15. Over the
    /// compiled walk graph a D* Lite expansion costs about five to six A* expansions (it
    /// reads the moves into a node as well as out of it, and keeps two costs and a key per
    /// node; measured by the `replan` example's `--bench`), so a repair that would expand
    /// more than about a sixth of a fresh search's nodes is better given up for the fresh
    /// search.
    pub const DEFAULT_BUDGET_FACTOR: f64 = 0.15;

    /// A replanner for `agent` moving at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are out of range.
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        Ok(Self {
            dstar: DStarLite::new(agent, costs)?,
            astar: GraphSearch::new(costs)?,
            budget_factor: Self::DEFAULT_BUDGET_FACTOR,
            fresh_expansions: 0,
            dstar_pending: false,
            route: KeptRoute::default(),
            ringed: Vec::new(),
        })
    }

    /// Sets the share of a fresh search's expansions a repair may spend. Defaults to 0.15.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] unless `factor` is finite and positive.
    pub fn with_budget_factor(mut self, factor: f64) -> Result<Self> {
        if !(factor.is_finite() && factor > 0.0) {
            return Err(Error::InvalidSetting(format!(
                "replan budget factor must be a positive number, found {factor}"
            )));
        }
        self.budget_factor = factor;
        Ok(self)
    }

    /// The most expansions the next repair may spend.
    #[must_use]
    pub fn repair_budget(&self) -> u64 {
        ((self.fresh_expansions as f64 * self.budget_factor) as u64).max(256)
    }

    /// Plans a route from `start` to `goal` with D* Lite's first search, whose work later
    /// repairs reuse and whose size sets the repair budget.
    ///
    /// # Errors
    /// As [`DStarLite::plan`].
    pub fn plan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
    ) -> Result<SearchResult> {
        let planned = self.dstar.plan(world, start, goal);
        self.planned(planned)
    }

    /// [`Replanner::plan`] over a graph compiled already, as [`DStarLite::plan_with_graph`].
    ///
    /// # Errors
    /// As [`DStarLite::plan_with_graph`].
    pub fn plan_with_graph(
        &mut self,
        graph: NavGraph,
        start: IVec3,
        goal: IVec3,
    ) -> Result<SearchResult> {
        let planned = self.dstar.plan_with_graph(graph, start, goal);
        self.planned(planned)
    }

    /// Takes in D* Lite's first plan: its size sets the repair budget.
    fn planned(&mut self, planned: Result<SearchResult>) -> Result<SearchResult> {
        let planned = planned?;
        self.fresh_expansions = planned.stats.expanded;
        self.dstar_pending = false;
        // The plan read a new table.
        self.ringed.clear();
        self.record(&planned);
        Ok(planned)
    }

    /// A new optimal route from `position` to the planned goal after the cells `changed`
    /// changed: the rest of the last route when no change can have beaten it
    /// ([`ReplanMethod::Kept`]), else D* Lite's repair when it finishes within
    /// [`Replanner::repair_budget`] expansions, else a fresh A*.
    ///
    /// # Errors
    /// As [`DStarLite::replan`].
    pub fn replan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: &[IVec3],
    ) -> Result<Replan> {
        self.replan_iter(world, position, changed.iter().copied())
    }

    /// [`Replanner::replan`] for the changes a [`ChunkedWorld`](crate::ChunkedWorld)
    /// reports, as [`DStarLite::replan_changes`].
    ///
    /// # Errors
    /// As [`DStarLite::replan`].
    pub fn replan_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changes: &Changes,
    ) -> Result<Replan> {
        self.replan_iter(world, position, changes.positions())
    }

    fn replan_iter<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: impl Iterator<Item = IVec3>,
    ) -> Result<Replan> {
        let started = Instant::now();
        // Forgotten unless it is checked against the updated graph below.
        let route = std::mem::take(&mut self.route);
        let patch = self.dstar.update(world, position, changed)?;
        if patch.only_worse
            && let Some((graph, table)) = self.dstar.graph_and_table()
            && let Some((path, cost)) = route.rest(graph, table, position)
        {
            self.route = route;
            // A repair given up earlier goes on within the budget, so that it is done before
            // a change needs it; the repair of this call's changes waits for such a change.
            let mut repair_expansions = 0;
            if self.dstar_pending {
                self.dstar_pending = !self.dstar.compute(self.repair_budget());
                repair_expansions = self.dstar.stats.expanded;
            }
            let stats = SearchStats {
                elapsed: started.elapsed(),
                ..SearchStats::default()
            };
            return Ok(Replan {
                result: SearchResult {
                    status: SearchStatus::Found,
                    path,
                    cost: Some(cost),
                    stats,
                },
                method: ReplanMethod::Kept,
                repair_expansions,
            });
        }
        self.finish(position, started)
    }

    fn finish(&mut self, position: IVec3, started: Instant) -> Result<Replan> {
        let budget = self.repair_budget();
        let finished = self.dstar.compute(budget);
        let repair_expansions = self.dstar.stats.expanded;
        self.dstar_pending = !finished;
        if finished {
            let result = self.dstar.result(started);
            self.record(&result);
            return Ok(Replan {
                result,
                method: ReplanMethod::Incremental,
                repair_expansions,
            });
        }
        // The fresh search runs over D* Lite's graph, which the update above brought up to
        // date.
        let Some(graph) = self.dstar.graph() else {
            return Err(Error::InvalidSetting(
                "D* Lite: call `plan` before `replan`".into(),
            ));
        };
        let goal = self.dstar.goal();
        let mut result = self
            .astar
            .find_path(graph, position, goal, &SearchOptions::default())?;
        self.fresh_expansions = result.stats.expanded;
        self.record(&result);
        result.stats.elapsed = started.elapsed();
        Ok(Replan {
            result,
            method: ReplanMethod::Fresh,
            repair_expansions,
        })
    }

    /// Keeps the route of `result` for [`ReplanMethod::Kept`].
    fn record(&mut self, result: &SearchResult) {
        match self.dstar.graph_and_table_mut() {
            Some((graph, table)) => self.route.record(graph, table, result, &mut self.ringed),
            None => self.route = KeptRoute::default(),
        }
    }

    /// Takes D* Lite's walk graph back, as [`DStarLite::take_graph`].
    pub fn take_graph(&mut self) -> Option<NavGraph> {
        self.dstar_pending = false;
        self.route = KeptRoute::default();
        self.ringed.clear();
        self.dstar.take_graph()
    }

    /// Whether D* Lite holds a repair it gave up over its budget (a fresh A* answered), which
    /// later calls continue, also those that keep the route.
    #[must_use]
    pub fn has_pending_repair(&self) -> bool {
        self.dstar_pending
    }
}
