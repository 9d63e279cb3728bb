//! [`Replanner`]: replanning toward one goal with lower bounds learned from earlier searches,
//! keeping the rest of the last route when those bounds prove it still optimal.

use std::time::Instant;

use glam::IVec3;

use super::adapted::AdaptedSearch;
use crate::error::{Error, Result};
use crate::graph::{GraphUpdate, NavGraph, NodeId};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::{SearchResult, SearchStats, SearchStatus};
use crate::world::chunked::Changes;
use crate::world::{InvalidFeet, VoxelWorld};

/// Which method answered a [`Replanner::replan`]. More methods may be added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReplanMethod {
    /// An A* over the updated walk graph, guided by the lower bounds on the cost to the goal
    /// that earlier searches toward it taught (kept admissible through the changes).
    Adapted,
    /// The rest of the last route is still there, and costs exactly the lower bound the
    /// replanner holds for the agent's position: no route can be cheaper, and no search ran.
    Kept,
    /// Planned from scratch, as [`Replanner::plan`] does, from the agent's position: an
    /// earlier update of the walk graph failed part way ([`Error::GraphBroken`]), so the
    /// graph was compiled again from the world as it is now.
    Planned,
}

/// The answer of [`Replanner::replan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replan {
    /// The new route from the agent's position, as a fresh search would find it (equal cost).
    pub result: SearchResult,
    /// Which method answered.
    pub method: ReplanMethod,
}

/// Replanning for an agent walking toward one goal in a changing world; see the
/// [module docs](super).
///
/// [`Replanner::plan`] searches backward from the goal, which teaches the exact cost to the
/// goal of every position it expands. Each [`Replanner::replan`] brings the walk graph up to
/// date from the changed cells, repairs those bounds where new or cheaper moves broke them
/// (exactly: they stay lower bounds, and consistent), and then either keeps the rest of its
/// last route, when its moves are all still there and it costs exactly the bound of the
/// agent's position (then nothing can be cheaper), or runs an A* forward from the agent with
/// the bounds as its heuristic, which learns from it in turn. Routes cost exactly what a
/// fresh search finds.
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
///
/// Its `Debug` output is a summary (goal, route length, its graph's summary), not its arrays.
#[derive(Clone)]
pub struct Replanner {
    agent: Agent,
    costs: MoveCosts,
    graph: Option<NavGraph>,
    search: AdaptedSearch,
    goal: IVec3,
    /// The planned route, by node id, for [`ReplanMethod::Kept`], until a search answers.
    route: KeptRoute,
}

/// A route answered, by node id, with the cost of each move.
#[derive(Debug, Clone, Default)]
struct KeptRoute {
    nodes: Vec<NodeId>,
    /// `steps[i]`: the cost of the move from `nodes[i]` to `nodes[i + 1]`.
    steps: Vec<u64>,
}

impl KeptRoute {
    /// Records the route of `result` over `graph` (forgets it unless it was found), with
    /// `remaining[i]` the cost from its `i`-th position to its end.
    fn record(&mut self, graph: &NavGraph, result: &SearchResult, remaining: &[u64]) {
        self.nodes.clear();
        self.steps.clear();
        if result.status != SearchStatus::Found || remaining.len() != result.path.len() {
            return;
        }
        for &feet in &result.path {
            let Some(id) = graph.node(feet) else {
                self.nodes.clear();
                return;
            };
            self.nodes.push(id);
        }
        self.steps.extend(
            remaining
                .windows(2)
                .map(|pair| pair[0].saturating_sub(pair[1])),
        );
    }

    /// Brings the route up to date with `update`: forgets it when one of its nodes was
    /// removed or one of its moves is gone, and re-prices the moves out of changed nodes.
    fn follow(&mut self, graph: &NavGraph, costs: &MoveCosts, update: &GraphUpdate) {
        if update.removed.iter().any(|id| self.nodes.contains(id)) {
            self.nodes.clear();
            self.steps.clear();
            return;
        }
        for at in 0..self.steps.len() {
            let from = self.nodes[at];
            if update.changed.binary_search(&from).is_err() {
                continue;
            }
            let Some(cost) = move_cost(graph, costs, from, self.nodes[at + 1]) else {
                self.nodes.clear();
                self.steps.clear();
                return;
            };
            self.steps[at] = cost;
        }
    }

    /// The rest of the route from node `at` and its cost, when `at` is on it.
    fn rest(&self, at: NodeId) -> Option<(&[NodeId], u64)> {
        let first = self.nodes.iter().position(|&id| id == at)?;
        Some((&self.nodes[first..], self.steps[first..].iter().sum()))
    }
}

/// The cost of the cheapest move from `from` to `to`, if there is one.
fn move_cost(graph: &NavGraph, costs: &MoveCosts, from: NodeId, to: NodeId) -> Option<u64> {
    let mut cheapest = None;
    graph.for_each_move(from, costs, |step| {
        if step.node == to {
            let cost = u64::from(step.cost);
            cheapest = Some(cheapest.map_or(cost, |c: u64| c.min(cost)));
        }
    });
    cheapest
}

impl std::fmt::Debug for Replanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replanner")
            .field("agent", &self.agent)
            .field("costs", &self.costs)
            .field("goal", &self.goal)
            .field("kept_route", &self.route.nodes.len())
            .field("graph", &self.graph)
            .finish_non_exhaustive()
    }
}

impl Replanner {
    /// A replanner for `agent` moving at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are out of range, or the agent
    /// does not walk.
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        agent.validate()?;
        agent.require_walking("the Replanner")?;
        costs.validate()?;
        Ok(Self {
            agent,
            costs,
            graph: None,
            search: AdaptedSearch::new(&agent, costs)?,
            goal: IVec3::ZERO,
            route: KeptRoute::default(),
        })
    }

    /// The goal of the current plan.
    #[must_use]
    pub fn goal(&self) -> IVec3 {
        self.goal
    }

    /// The walk graph the plan searches, kept up to date by each replan.
    #[must_use]
    pub fn graph(&self) -> Option<&NavGraph> {
        self.graph.as_ref()
    }

    /// Plans from scratch: compiles the walk graph of `world` and finds an optimal route from
    /// the feet position `start` to the feet position `goal`, searching backward from the
    /// goal (which teaches the bounds later replans use).
    ///
    /// # Errors
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either is not a valid feet
    /// position, [`Error::NeedsBounds`] for a world without bounds, and as
    /// [`NavGraph::compile`].
    pub fn plan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        let graph = super::compile_for(world, &self.agent, (start, goal), "the Replanner")?;
        self.plan_over(graph, start, goal, started)
    }

    /// [`Replanner::plan`] over a graph compiled already (for example a clone of a graph kept
    /// up to date for many agents): `graph` must describe the world as it is now.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the graph was compiled for another agent;
    /// as [`NavGraph::check_current`] for a stale or broken graph;
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either is not a node of the
    /// graph.
    pub fn plan_with_graph(
        &mut self,
        graph: NavGraph,
        start: IVec3,
        goal: IVec3,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        super::check_given(&graph, &self.agent)?;
        self.plan_over(graph, start, goal, started)
    }

    fn plan_over(
        &mut self,
        graph: NavGraph,
        start: IVec3,
        goal: IVec3,
        started: Instant,
    ) -> Result<SearchResult> {
        let reason = InvalidFeet::NotInGraph;
        let start_node = graph
            .node(start)
            .ok_or(Error::InvalidStart { pos: start, reason })?;
        let goal_node = graph
            .node(goal)
            .ok_or(Error::InvalidGoal { pos: goal, reason })?;
        let result = self.search.plan(&graph, start_node, goal_node, started);
        let mut remaining = Vec::new();
        if result.is_found()
            && self
                .search
                .planned_remaining(&graph, &result.path, &mut remaining)
        {
            self.route.record(&graph, &result, &remaining);
        } else {
            self.route = KeptRoute::default();
        }
        self.goal = goal;
        self.graph = Some(graph);
        Ok(result)
    }

    /// A new optimal route from the agent's feet position `position` to the planned goal
    /// after the cells `changed` changed (in any way): the rest of the last route when the
    /// bounds prove it optimal ([`ReplanMethod::Kept`]), else an A* guided by the bounds
    /// ([`ReplanMethod::Adapted`]). `position` may be anywhere, usually a position of the
    /// last route.
    ///
    /// The world must be the one planned on ([`Error::OtherWorld`] otherwise, for a world with
    /// a [`VoxelWorld::watch`]), and `changed` must list every cell changed since the last
    /// plan or replan: an empty list for a world that changed is refused
    /// ([`Error::StaleGraph`]). When the graph's update fails part way (an error such as
    /// [`Error::GraphTooLarge`]), the next replan compiles the graph again and plans from
    /// scratch ([`ReplanMethod::Planned`]).
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] before the first [`Replanner::plan`];
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when `position` or the goal is not a
    /// valid feet position any more (nothing is changed then: pass the same cells again);
    /// as [`NavGraph::update`], and as [`NavGraph::compile`] when planning from scratch.
    pub fn replan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: &[IVec3],
    ) -> Result<Replan> {
        self.replan_iter(world, position, super::Changed::Cells(changed))
    }

    /// [`Replanner::replan`] for the changes a [`ChunkedWorld`](crate::ChunkedWorld) reports
    /// ([`ChunkedWorld::take_changes`](crate::ChunkedWorld::take_changes)).
    ///
    /// # Errors
    /// As [`Replanner::replan`].
    pub fn replan_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changes: &Changes,
    ) -> Result<Replan> {
        self.replan_iter(world, position, super::Changed::Log(changes))
    }

    fn replan_iter<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: super::Changed<'_>,
    ) -> Result<Replan> {
        let started = Instant::now();
        let Some(graph) = self.graph.as_mut() else {
            return Err(Error::InvalidSetting(
                "the Replanner: call `plan` before `replan`".into(),
            ));
        };
        super::check_ends(world, &self.agent, position, self.goal)?;
        if graph.is_broken() {
            graph.check_world(world, "Replanner's walk graph")?;
            let graph = NavGraph::compile(world, &self.agent)?;
            let result = self.plan_over(graph, position, self.goal, started)?;
            return Ok(Replan {
                result,
                method: ReplanMethod::Planned,
            });
        }
        // Cells outside the graph's bounds are ignored by the update, whatever their
        // coordinates.
        let update = changed.apply(graph, world)?;
        let graph = &*graph;
        let reason = InvalidFeet::NotInGraph;
        let Some(goal) = graph.node(self.goal) else {
            // The goal is a valid feet position of the world the graph now matches, so this
            // does not happen; if it did, the bounds would not know the update.
            self.search.bounds.reset(graph, self.goal);
            self.route = KeptRoute::default();
            return Err(Error::InvalidGoal {
                pos: self.goal,
                reason,
            });
        };
        self.search.bounds.apply(graph, &self.costs, &update, goal);
        self.route.follow(graph, &self.costs, &update);
        let at = graph.node(position).ok_or(Error::InvalidStart {
            pos: position,
            reason,
        })?;
        if let Some((rest, cost)) = self.route.rest(at)
            && cost == self.search.bounds.estimate(at, position)
        {
            let path = rest.iter().map(|&id| graph.feet(id)).collect();
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
            });
        }
        let mut result = self.search.search(graph, position)?;
        // The search's route costs its optimum, but the bounds do not know the cost along
        // it (they learn only from plans), so they could not prove it optimal later.
        self.route = KeptRoute::default();
        result.stats.elapsed = started.elapsed();
        Ok(Replan {
            result,
            method: ReplanMethod::Adapted,
        })
    }

    /// Takes the walk graph back (for example to plan again with
    /// [`Replanner::plan_with_graph`] after bringing it up to date), forgetting the plan:
    /// the next [`Replanner::replan`] is an error until the next plan.
    pub fn take_graph(&mut self) -> Option<NavGraph> {
        self.route = KeptRoute::default();
        self.graph.take()
    }
}
