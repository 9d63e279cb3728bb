//! The engines the sets are run with ([`Engine`]), what one query gave ([`Outcome`]),
//! and the [`Runner`] that drives each engine over a set keeping its search state between
//! queries.

use pathfinding::prelude::astar;
use voxnav::engine::{Heuristic, Pathfinder, neighbours};
use voxnav::flat::{GridEngine, GridPlanner};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::reach::ReachIndex;
use voxnav::world::{FlatWorld, VersionedWorld};
use voxnav::{IVec3, SearchOptions, SearchStatus, VoxelWorld};

use super::super::baseline;
use super::{NAIVE_BUDGET, Query, QuerySet, WorldId};

/// The engines compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// voxnav as a user answering many queries on one world runs it (what `Navigator`
    /// does): the reachability index first, then `GraphSearch`, A* over the compiled walk
    /// graph, for every query the index does not prove unreachable.
    Voxnav,
    /// voxnav's `GraphSearch` alone, on every query.
    VoxnavGraph,
    /// voxnav's `Pathfinder`: A* deriving the walking rules per expansion.
    VoxnavOnTheFly,
    /// `voxnav::baseline`, the naive 26-neighbour A*.
    Naive26,
    /// The `pathfinding` crate's `astar` over voxnav's neighbour generator and heuristic.
    PathfindingCrate,
    /// voxnav's `GridPlanner` with online jump point search (flat worlds only).
    VoxnavJps,
    /// voxnav's `GridPlanner` with JPS+, its jump table built before any timing (flat worlds
    /// only).
    VoxnavJpsPlus,
}

impl Engine {
    /// Every engine, voxnav first.
    pub const ALL: [Engine; 7] = [
        Engine::Voxnav,
        Engine::Naive26,
        Engine::PathfindingCrate,
        Engine::VoxnavGraph,
        Engine::VoxnavOnTheFly,
        Engine::VoxnavJps,
        Engine::VoxnavJpsPlus,
    ];

    /// The engine's name in tables.
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Voxnav => "voxnav",
            Engine::VoxnavGraph => "voxnav-graph",
            Engine::VoxnavOnTheFly => "voxnav-otf",
            Engine::Naive26 => "naive26",
            Engine::PathfindingCrate => "pathfinding",
            Engine::VoxnavJps => "voxnav-jps",
            Engine::VoxnavJpsPlus => "voxnav-jps+",
        }
    }

    /// Whether the engine runs on `set`.
    pub fn runs_on(self, set: &QuerySet) -> bool {
        match self {
            Engine::PathfindingCrate => set.crate_runs,
            Engine::VoxnavJps | Engine::VoxnavJpsPlus => set.world == WorldId::Flat,
            _ => true,
        }
    }

    /// The `GridPlanner` engine this engine runs, for the jump point searches.
    pub const fn grid_engine(self) -> Option<GridEngine> {
        match self {
            Engine::VoxnavJps => Some(GridEngine::Jps),
            Engine::VoxnavJpsPlus => Some(GridEngine::JpsPlus),
            _ => None,
        }
    }
}

/// What one query gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// How the search ended.
    pub status: SearchStatus,
    /// The route's cost (a partial route's for a budget stop).
    pub cost: Option<u64>,
    /// Nodes expanded.
    pub expanded: u64,
}

/// Runs queries of one set with each engine, keeping voxnav's search state between queries
/// as a server would.
pub struct Runner {
    search: GraphSearch,
    /// The flat world's planners of the jump point engines, made on their first query.
    grids: Vec<GridPlanner>,
    pathfinder: Pathfinder,
    options: SearchOptions,
    naive_budget: u64,
}

impl Runner {
    /// A runner for `set`.
    ///
    /// # Errors
    /// A message when the set's agent or costs are out of range.
    pub fn new(set: &QuerySet) -> Result<Self, String> {
        let pathfinder = Pathfinder::new(set.agent, set.costs).map_err(|e| e.to_string())?;
        let search = GraphSearch::new(set.costs).map_err(|e| e.to_string())?;
        let options = match set.budget {
            Some(budget) => SearchOptions::default().with_max_nodes(budget),
            None => SearchOptions::default(),
        };
        Ok(Self {
            search,
            grids: Vec::new(),
            pathfinder,
            options,
            naive_budget: set.budget.unwrap_or(NAIVE_BUDGET),
        })
    }

    /// Sizes the graph search's memory for `graph`, outside any timing: a server keeps one
    /// search per thread for all its queries.
    pub fn reserve_for(&mut self, graph: &NavGraph) {
        self.search.reserve_for(graph);
    }

    /// Runs the queries of `set`, on `flat`, through a `GridPlanner` searching with
    /// `engine`, `repeat` times over. The planner (and a JPS+ jump table) is made on the
    /// runner's first query with the engine, which `compare` runs untimed.
    ///
    /// # Errors
    /// A message when the planner cannot be made or a query is not a free cell.
    pub fn run_grid_queries(
        &mut self,
        engine: GridEngine,
        flat: &FlatWorld,
        set: &QuerySet,
        repeat: u32,
    ) -> Result<Vec<Outcome>, String> {
        let slot = match self.grids.iter().position(|p| p.engine() == engine) {
            Some(slot) => slot,
            None => {
                let planner = GridPlanner::new(flat.grid().clone(), set.agent.diagonals, set.costs)
                    .and_then(|p| p.with_engine(engine))
                    .map_err(|e| e.to_string())?;
                self.grids.push(planner);
                self.grids.len() - 1
            }
        };
        let planner = &mut self.grids[slot];
        let mut outcomes = Vec::with_capacity(set.queries.len() * repeat as usize);
        for query in (0..repeat).flat_map(|_| &set.queries) {
            let (start, goal) = (FlatWorld::cell(query.start), FlatWorld::cell(query.goal));
            let route = planner
                .plan(start, goal)
                .map_err(|e| format!("{} on {start} -> {goal}: {e}", engine.name()))?;
            outcomes.push(Outcome {
                status: route.status,
                cost: route.cost,
                expanded: route.stats.expanded,
            });
        }
        Ok(outcomes)
    }

    /// Runs `queries` on `world` (whose walk graph and reachability index are `built`) with
    /// `engine`, `repeat` times over.
    ///
    /// # Errors
    /// A message when the engine rejects a query.
    pub fn run_queries<W: VersionedWorld + ?Sized>(
        &mut self,
        engine: Engine,
        world: &W,
        built: (&NavGraph, &ReachIndex),
        queries: &[Query],
        repeat: u32,
    ) -> Result<Vec<Outcome>, String> {
        let mut outcomes = Vec::with_capacity(queries.len() * repeat as usize);
        for query in (0..repeat).flat_map(|_| queries) {
            let outcome = self.run(engine, world, built, query).map_err(|message| {
                format!(
                    "{} on {} -> {}: {message}",
                    engine.name(),
                    query.start,
                    query.goal
                )
            })?;
            outcomes.push(outcome);
        }
        Ok(outcomes)
    }

    fn run<W: VersionedWorld + ?Sized>(
        &mut self,
        engine: Engine,
        world: &W,
        (graph, index): (&NavGraph, &ReachIndex),
        query: &Query,
    ) -> Result<Outcome, String> {
        match engine {
            Engine::Voxnav
                if index
                    .reach(world, graph.agent(), query.start, query.goal)
                    .proves_unreachable() =>
            {
                Ok(Outcome {
                    status: SearchStatus::Unreachable,
                    cost: None,
                    expanded: 0,
                })
            }
            Engine::Voxnav | Engine::VoxnavGraph => {
                let result = self
                    .search
                    .find_path(graph, query.start, query.goal, &self.options)
                    .map_err(|e| e.to_string())?;
                Ok(Outcome {
                    status: result.status,
                    cost: result.cost,
                    expanded: result.stats.expanded,
                })
            }
            Engine::VoxnavOnTheFly => {
                let result = self
                    .pathfinder
                    .find_path(world, query.start, query.goal, &self.options)
                    .map_err(|e| e.to_string())?;
                Ok(Outcome {
                    status: result.status,
                    cost: result.cost,
                    expanded: result.stats.expanded,
                })
            }
            Engine::Naive26 => {
                let result =
                    baseline::find_path(world, query.start, query.goal, Some(self.naive_budget))
                        .map_err(|e| e.to_string())?;
                Ok(Outcome {
                    status: result.status,
                    cost: result.cost,
                    expanded: result.stats.expanded,
                })
            }
            Engine::PathfindingCrate => Ok(self.run_crate(world, query)),
            Engine::VoxnavJps | Engine::VoxnavJpsPlus => {
                Err("jump point search runs on the Moving AI flat world only".into())
            }
        }
    }

    fn run_crate<W: VoxelWorld + ?Sized>(&self, world: &W, query: &Query) -> Outcome {
        let agent = *self.pathfinder.agent();
        let costs = *self.pathfinder.costs();
        let estimator = Heuristic::default().estimator(&agent, &costs);
        let goal = query.goal;
        let mut moves = Vec::with_capacity(8);
        let mut expanded = 0;
        let found = astar(
            &query.start,
            |&feet| {
                expanded += 1;
                neighbours(world, &agent, &costs, feet, &mut moves);
                // A fixed array rather than a fresh Vec: no allocation per expansion. Room for
                // the 8 horizontal moves and the 2 ladder climbs.
                let mut out = [(IVec3::ZERO, 0u64); 10];
                for (slot, step) in out.iter_mut().zip(&moves) {
                    *slot = (step.feet, u64::from(step.cost));
                }
                out.into_iter().take(moves.len())
            },
            |&feet| estimator.between(feet, goal),
            |&feet| feet == goal,
        );
        Outcome {
            status: if found.is_some() {
                SearchStatus::Found
            } else {
                SearchStatus::Unreachable
            },
            cost: found.map(|(_, cost)| cost),
            expanded,
        }
    }
}
