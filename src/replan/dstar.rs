//! [`DStarLite`]: incremental replanning by D* Lite (Koenig and Likhachev, 2002) over the
//! compiled walk graph; see the [module docs](super) for when it pays.

use std::cmp::Ordering;
use std::time::Instant;

use glam::IVec3;

use super::queue::Queue;
use super::table::{Edge, MoveTable};
use crate::error::{Error, Result};
use crate::graph::{NavGraph, NodeId};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::heuristic::{Estimator, Heuristic};
use crate::search::{SearchResult, SearchStats, SearchStatus};
use crate::world::chunked::Changes;
use crate::world::{InvalidFeet, VoxelWorld};

/// A distance to the goal: the cost of the moves, then how many moves.
///
/// Moves may cost nothing (free ladder rungs when `ascend`, `descend` and `climb` are 0, which
/// [`MoveCosts::validate`] accepts), and D* Lite's repair is only right when every move costs
/// more than nothing: two positions joined by free moves (the top and bottom of a free
/// ladder) would otherwise keep vouching for each other's old cost-to-goal after the route
/// they both relied on broke, and the repair would leave them believing it. Compared by cost
/// first and number of moves second, every move is worth more than nothing while the cost
/// still decides which routes are optimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Dist {
    cost: u64,
    moves: u32,
}

impl Dist {
    const ZERO: Self = Self { cost: 0, moves: 0 };

    /// This distance, after one more move costing `step` in front of it.
    #[inline]
    fn after(self, step: u32) -> Self {
        if self == INF {
            return INF;
        }
        Self {
            cost: self.cost.saturating_add(u64::from(step)),
            moves: self.moves.saturating_add(1),
        }
    }
}

const INF: Dist = Dist {
    cost: u64::MAX,
    moves: u32::MAX,
};

/// A queue key: D* Lite's `(min(g, rhs) + h + km, min(g, rhs))` with `Dist` terms (the
/// heuristic and `km` add cost, never moves, so one `moves` field serves both terms).
/// Ordered by `estimate`, then `moves`, then `cost`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    estimate: u64,
    cost: u64,
    moves: u32,
}

impl Key {
    #[inline]
    fn rank(&self) -> (u64, u32, u64) {
        (self.estimate, self.moves, self.cost)
    }
}

impl Ord for Key {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Key {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

const KEY_INF: Key = Key {
    estimate: u64::MAX,
    cost: u64::MAX,
    moves: u32::MAX,
};

/// D* Lite's costs of one graph node; its key, when it is queued, lives in the [`Queue`].
#[derive(Debug, Clone, Copy)]
struct State {
    g: Dist,
    rhs: Dist,
}

const UNSEEN: State = State { g: INF, rhs: INF };

/// D* Lite for one agent and its costs: plan once with [`DStarLite::plan`], then call
/// [`DStarLite::replan`] with the agent's position and the cells that changed.
///
/// It searches over a [`NavGraph`] of the world, compiled by [`DStarLite::plan`] (or handed
/// over with [`DStarLite::plan_with_graph`]) and updated locally from the changed cells by
/// each replan, so predecessors and successors are read from the graph's moves rather than
/// re-derived from the walking rules. Only for bounded worlds.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts};
/// use voxnav::engine::DStarLite;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(12, 4, 5))?;
/// world.fill(IVec3::ZERO, IVec3::new(11, 0, 4), Block::Solid)?;
/// let mut dstar = DStarLite::new(Agent::default(), MoveCosts::default())?;
/// let first = dstar.plan(&world, IVec3::new(0, 1, 2), IVec3::new(11, 1, 2))?;
/// assert_eq!(first.cost, Some(110));
///
/// // The agent walked three steps; a player builds a wall across the row ahead.
/// world.track_changes(true);
/// world.fill(IVec3::new(6, 1, 1), IVec3::new(6, 2, 3), Block::Solid)?;
/// let changed: Vec<IVec3> = world.take_changes().positions().collect();
/// let again = dstar.replan(&world, IVec3::new(3, 1, 2), &changed)?;
/// // Round the wall's end at z = 0: four diagonal and four straight steps.
/// assert_eq!(again.cost, Some(4 * 14 + 4 * 10));
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// Its `Debug` output is a summary (goal, counts, its graph's summary), not its arrays.
#[derive(Clone)]
pub struct DStarLite {
    agent: Agent,
    costs: MoveCosts,
    estimator: Estimator,
    graph: Option<NavGraph>,
    /// The graph's moves in both directions at `costs`, read as the search asks for them
    /// and patched by each update; reset by each plan.
    table: MoveTable,
    /// Reused buffer for the moves into a node whose predecessors look again.
    scratch: Vec<Edge>,
    states: Vec<State>,
    open: Queue<Key>,
    goal: IVec3,
    goal_node: NodeId,
    start: IVec3,
    km: u64,
    /// Counts the start's moves: a key computed in an earlier epoch may be out of date.
    epoch: u32,
    /// Nodes given a finite `rhs` since the plan (for statistics).
    touched: usize,
    stats: SearchStats,
}

impl std::fmt::Debug for DStarLite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DStarLite")
            .field("agent", &self.agent)
            .field("costs", &self.costs)
            .field("start", &self.start)
            .field("goal", &self.goal)
            .field("states", &self.states.len())
            .field("touched", &self.touched)
            .field("graph", &self.graph)
            .finish_non_exhaustive()
    }
}

impl DStarLite {
    /// D* Lite for `agent` moving at `costs`, with the default (octile) heuristic.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are out of range, or the agent
    /// does not walk.
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        agent.validate()?;
        agent.require_walking("D* Lite")?;
        costs.validate()?;
        Ok(Self {
            agent,
            costs,
            estimator: Heuristic::default().estimator(&agent, &costs),
            graph: None,
            table: MoveTable::default(),
            scratch: Vec::new(),
            states: Vec::new(),
            open: Queue::default(),
            goal: IVec3::ZERO,
            goal_node: 0,
            start: IVec3::ZERO,
            km: 0,
            epoch: 0,
            touched: 0,
            stats: SearchStats::default(),
        })
    }

    /// The goal of the current plan.
    #[must_use]
    pub fn goal(&self) -> IVec3 {
        self.goal
    }

    /// The number of nodes the search has given a cost since the plan (for statistics).
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.touched
    }

    /// The walk graph the plan searches, kept up to date by each replan.
    #[must_use]
    pub fn graph(&self) -> Option<&NavGraph> {
        self.graph.as_ref()
    }

    /// Takes the walk graph back (for example to plan again with
    /// [`DStarLite::plan_with_graph`] after bringing it up to date), forgetting the plan:
    /// the next [`DStarLite::replan`] is an error until the next plan.
    pub fn take_graph(&mut self) -> Option<NavGraph> {
        self.open.reset(0);
        self.graph.take()
    }

    /// Plans from scratch: compiles the walk graph of `world` and finds an optimal route from
    /// the feet position `start` to the feet position `goal`.
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
        let graph = super::compile_for(world, &self.agent, (start, goal), "D* Lite")?;
        self.plan_over(graph, start, goal, started)
    }

    /// [`DStarLite::plan`] over a graph compiled already (for example a clone of a graph kept
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
        let not_in_graph = InvalidFeet::NotInGraph;
        graph.node(start).ok_or(Error::InvalidStart {
            pos: start,
            reason: not_in_graph,
        })?;
        let goal_node = graph.node(goal).ok_or(Error::InvalidGoal {
            pos: goal,
            reason: not_in_graph,
        })?;
        self.states.clear();
        // Room for repairs to add a quarter more nodes without reallocating: a reallocation
        // copies every node's state, a cost better paid when planning than on a replan.
        self.states
            .reserve(graph.id_bound() + graph.id_bound() / 4 + 1024);
        self.states.resize(graph.id_bound(), UNSEEN);
        self.open.reset(graph.id_bound());
        self.km = 0;
        self.touched = 1;
        self.start = start;
        self.goal = goal;
        self.goal_node = goal_node;
        self.stats = SearchStats::default();
        self.states[goal_node as usize].rhs = Dist::ZERO;
        self.push_if_inconsistent(&graph, goal_node);
        self.table.reset(&graph, &self.costs);
        self.graph = Some(graph);
        self.compute();
        Ok(self.result(started))
    }

    /// Replans from the agent's current feet position `position` after the cells `changed`
    /// changed (in any way), reusing the work of earlier calls. `position` may be anywhere,
    /// usually a position of the last route.
    ///
    /// The world must be the one planned on ([`Error::OtherWorld`] otherwise, for a world with
    /// a [`VoxelWorld::watch`]), and `changed` must list every cell changed since the last
    /// plan or replan: an empty list for a world that changed is refused
    /// ([`Error::StaleGraph`]). When the graph's update fails part way (an error such as
    /// [`Error::GraphTooLarge`]), the next replan compiles the graph again and plans from
    /// scratch.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] before the first [`DStarLite::plan`];
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when `position` or the goal is not a
    /// valid feet position any more (nothing is changed then: pass the same cells again); as
    /// [`NavGraph::update`], and as [`NavGraph::compile`] when planning from scratch.
    pub fn replan<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: &[IVec3],
    ) -> Result<SearchResult> {
        self.replan_iter(world, position, super::Changed::Cells(changed))
    }

    /// [`DStarLite::replan`] for the changes a [`ChunkedWorld`](crate::ChunkedWorld) reports
    /// ([`ChunkedWorld::take_changes`](crate::ChunkedWorld::take_changes)).
    ///
    /// # Errors
    /// As [`DStarLite::replan`].
    pub fn replan_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changes: &Changes,
    ) -> Result<SearchResult> {
        self.replan_iter(world, position, super::Changed::Log(changes))
    }

    fn replan_iter<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: super::Changed<'_>,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        if let Some(graph) = self.graph.as_ref().filter(|graph| graph.is_broken()) {
            graph.check_world(world, "D* Lite's walk graph")?;
            super::check_ends(world, &self.agent, position, self.goal)?;
            let graph = NavGraph::compile(world, &self.agent)?;
            return self.plan_over(graph, position, self.goal, started);
        }
        self.update(world, position, changed)?;
        self.compute();
        Ok(self.result(started))
    }

    /// Moves the start to `position`, updates the graph and the move table from the changed
    /// cells and recomputes the cost of every node whose moves changed. Leaves the repair
    /// itself to [`DStarLite::compute`].
    fn update<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        position: IVec3,
        changed: super::Changed<'_>,
    ) -> Result<()> {
        let Some(graph) = self.graph.as_mut() else {
            return Err(Error::InvalidSetting(
                "D* Lite: call `plan` before `replan`".into(),
            ));
        };
        super::check_ends(world, &self.agent, position, self.goal)?;
        // Cells outside the graph's bounds are ignored by the update, whatever their
        // coordinates.
        let update = changed.apply(graph, world)?;
        self.table.patch(graph, &update);
        self.stats = SearchStats::default();
        if position != self.start {
            self.km = self
                .km
                .saturating_add(self.estimator.between(self.start, position));
            self.start = position;
            if self.epoch == u32::MAX {
                // Every queued key counts as out of date after the wrap.
                self.open.mark_epochs(0);
                self.epoch = 0;
            }
            self.epoch += 1;
        }
        let bound = graph.id_bound();
        if self.states.len() < bound {
            self.states.resize(bound, UNSEEN);
        }
        self.open.grow(bound);
        // A removed node has no cost; whoever had a move into it lost that move, and is
        // listed as changed.
        for &id in &update.removed {
            self.states[id as usize] = UNSEEN;
            self.open.remove(id);
        }
        let Some(graph) = self.graph.take() else {
            return Ok(());
        };
        let mut table = std::mem::take(&mut self.table);
        for &id in &update.changed {
            if id == self.goal_node {
                continue;
            }
            let rhs = self.best_successor(&mut table, &graph, id);
            if self.states[id as usize].rhs == INF && rhs != INF {
                self.touched += 1;
            }
            self.states[id as usize].rhs = rhs;
            self.push_if_inconsistent(&graph, id);
        }
        self.graph = Some(graph);
        self.table = table;
        Ok(())
    }

    /// D* Lite's `ComputeShortestPath`: until the start is consistent and nothing queued can
    /// improve it.
    fn compute(&mut self) {
        let Some(graph) = self.graph.take() else {
            return;
        };
        let mut table = std::mem::take(&mut self.table);
        self.compute_over(&graph, &mut table);
        self.graph = Some(graph);
        self.table = table;
    }

    fn compute_over(&mut self, graph: &NavGraph, table: &mut MoveTable) {
        let start_node = graph.node(self.start);
        let start_estimate = self.estimator.between(self.start, self.start);
        loop {
            let (start_key, start_inconsistent) = match start_node {
                Some(node) => {
                    let state = self.states[node as usize];
                    (self.key_of(&state, start_estimate), state.rhs != state.g)
                }
                None => (KEY_INF, false),
            };
            let Some(&top) = self.open.peek() else {
                return;
            };
            if top.key >= start_key && !start_inconsistent {
                return;
            }
            self.stats.expanded += 1;
            let u = top.node;
            let state = self.states[u as usize];
            if top.epoch != self.epoch {
                // The start moved since the key was computed: `km` may have grown past the
                // fall of the heuristic, and the node is due later. (A key never falls when
                // the start moves: the heuristic is consistent, and `km` grows by the
                // estimate between the old and new start.)
                let fresh_key = self.key_with(graph, u, &state);
                if top.key < fresh_key {
                    self.open.set(u, fresh_key, self.epoch);
                    continue;
                }
            }
            if state.g > state.rhs {
                // Overconsistent: settle it and offer it to its predecessors.
                self.states[u as usize].g = state.rhs;
                self.open.remove(u);
                for &Edge { node: from, cost } in table.incoming(graph, u) {
                    if from == self.goal_node {
                        continue;
                    }
                    let offer = state.rhs.after(cost);
                    if offer < self.states[from as usize].rhs {
                        if self.states[from as usize].rhs == INF {
                            self.touched += 1;
                        }
                        self.states[from as usize].rhs = offer;
                        self.push_if_inconsistent(graph, from);
                        self.stats.generated += 1;
                    }
                }
            } else {
                // Underconsistent: its cost went up; whoever relied on it looks again.
                let g_old = state.g;
                self.states[u as usize].g = INF;
                let mut into = std::mem::take(&mut self.scratch);
                into.clear();
                into.extend_from_slice(table.incoming(graph, u));
                for &Edge { node: from, cost } in &into {
                    if from == self.goal_node {
                        continue;
                    }
                    if g_old != INF && self.states[from as usize].rhs == g_old.after(cost) {
                        let rhs = self.best_successor(table, graph, from);
                        self.states[from as usize].rhs = rhs;
                        self.push_if_inconsistent(graph, from);
                        self.stats.generated += 1;
                    }
                }
                self.scratch = into;
                if u != self.goal_node {
                    let rhs = self.best_successor(table, graph, u);
                    self.states[u as usize].rhs = rhs;
                }
                self.push_if_inconsistent(graph, u);
            }
        }
    }

    /// The queue key of node `id` in `state`.
    #[inline]
    fn key_with(&self, graph: &NavGraph, id: NodeId, state: &State) -> Key {
        if state.g == INF && state.rhs == INF {
            return KEY_INF;
        }
        self.key_of(state, self.estimator.between(self.start, graph.feet(id)))
    }

    /// The queue key of a node in `state` whose heuristic estimate from the start is
    /// `estimate`.
    #[inline]
    fn key_of(&self, state: &State, estimate: u64) -> Key {
        let best = state.g.min(state.rhs);
        if best == INF {
            return KEY_INF;
        }
        Key {
            estimate: best.cost.saturating_add(estimate).saturating_add(self.km),
            cost: best.cost,
            moves: best.moves,
        }
    }

    /// Queues node `id` with its current key when `g != rhs`, takes it off otherwise.
    #[inline]
    fn push_if_inconsistent(&mut self, graph: &NavGraph, id: NodeId) {
        let state = self.states[id as usize];
        if state.g == state.rhs {
            self.open.remove(id);
            return;
        }
        let key = self.key_with(graph, id, &state);
        if self
            .open
            .get(id)
            .is_none_or(|entry| entry.key != key || entry.epoch != self.epoch)
        {
            self.open.set(id, key, self.epoch);
        }
    }

    /// The smallest `(cost, 1) + g(target)` over the moves out of `id`.
    #[inline]
    fn best_successor(&self, table: &mut MoveTable, graph: &NavGraph, id: NodeId) -> Dist {
        table
            .out(graph, id)
            .iter()
            .map(|edge| self.states[edge.node as usize].g.after(edge.cost))
            .min()
            .unwrap_or(INF)
    }

    /// The route from the start: from each node, the move whose `(cost, 1) + g(target)` is
    /// smallest, to the goal. Distances fall strictly along it, so it cannot loop.
    fn result(&mut self, started: Instant) -> SearchResult {
        let mut stats = self.stats;
        stats.elapsed = started.elapsed();
        let unreachable = SearchResult::unreachable(stats);
        let Some(graph) = self.graph.as_ref() else {
            return unreachable;
        };
        let table = &mut self.table;
        let Some(mut node) = graph.node(self.start) else {
            return unreachable;
        };
        if self.states[node as usize].g == INF {
            return unreachable;
        }
        let mut path = Vec::with_capacity(256);
        path.push(self.start);
        let mut cost = 0u64;
        while node != self.goal_node {
            // `rhs` is the smallest `(cost, 1) + g(target)` over the node's moves, kept so
            // by every change of a `g`: the first move that reaches it is the first best
            // one, and the moves after it need not be read.
            let rhs = self.states[node as usize].rhs;
            let mut next: Option<(Dist, Edge)> = None;
            for &edge in table.out(graph, node) {
                let total = self.states[edge.node as usize].g.after(edge.cost);
                if total != INF && next.is_none_or(|(best, _)| total < best) {
                    next = Some((total, edge));
                    if total == rhs {
                        break;
                    }
                }
            }
            let Some((_, step)) = next else {
                return unreachable;
            };
            if path.len() > graph.id_bound() {
                return unreachable;
            }
            cost += u64::from(step.cost);
            node = step.node;
            path.push(graph.feet(node));
        }
        stats.elapsed = started.elapsed();
        SearchResult {
            status: SearchStatus::Found,
            path,
            cost: Some(cost),
            stats,
        }
    }
}
