//! [`Replanner`]: the replanning policy, D* Lite when its repair is cheap, a fresh A* when not.

use std::time::Instant;

use glam::IVec3;

use super::dstar::DStarLite;
use crate::error::{Error, Result};
use crate::graph::{GraphSearch, NavGraph};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::{SearchOptions, SearchResult};
use crate::world::VoxelWorld;
use crate::world::chunked::Changes;

/// Which search answered a [`Replanner::replan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReplanMethod {
    /// D* Lite repaired its earlier work within its budget.
    Incremental,
    /// The repair ran over its budget (or there was no earlier plan): a fresh A* answered.
    Fresh,
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
/// cheap, a fresh A* when it is not (see the [module docs](super) for when each wins).
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
    /// Whether D* Lite's state is complete for its goal (false after a repair given up).
    dstar_pending: bool,
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
        let planned = self.dstar.plan(world, start, goal)?;
        self.fresh_expansions = planned.stats.expanded;
        self.dstar_pending = false;
        Ok(planned)
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
        let planned = self.dstar.plan_with_graph(graph, start, goal)?;
        self.fresh_expansions = planned.stats.expanded;
        self.dstar_pending = false;
        Ok(planned)
    }

    /// A new optimal route from `position` to the planned goal after the cells `changed`
    /// changed: D* Lite's repair when it finishes within [`Replanner::repair_budget`]
    /// expansions, otherwise a fresh A*.
    ///
    /// # Errors
    /// As [`DStarLite::replan`].
    pub fn replan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: &[IVec3],
    ) -> Result<Replan> {
        let started = Instant::now();
        self.dstar
            .update(world, position, changed.iter().copied())?;
        self.finish(position, started)
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
        let started = Instant::now();
        self.dstar.update(world, position, changes.positions())?;
        self.finish(position, started)
    }

    fn finish(&mut self, position: IVec3, started: Instant) -> Result<Replan> {
        let budget = self.repair_budget();
        let finished = self.dstar.compute(budget);
        let repair_expansions = self.dstar.stats.expanded;
        self.dstar_pending = !finished;
        if finished {
            return Ok(Replan {
                result: self.dstar.result(started),
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
        result.stats.elapsed = started.elapsed();
        Ok(Replan {
            result,
            method: ReplanMethod::Fresh,
            repair_expansions,
        })
    }

    /// Takes D* Lite's walk graph back, as [`DStarLite::take_graph`].
    pub fn take_graph(&mut self) -> Option<NavGraph> {
        self.dstar_pending = false;
        self.dstar.take_graph()
    }

    /// Whether D* Lite holds an unfinished repair (the last replan gave it up).
    #[must_use]
    pub fn has_pending_repair(&self) -> bool {
        self.dstar_pending
    }
}
