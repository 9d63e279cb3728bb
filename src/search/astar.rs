//! A* over feet positions.

use std::time::Instant;

use glam::IVec3;

use super::goal::{BlockGoal, Goal};
use super::nodes::{NO_NODE, NodeTable};
use super::open::OpenSet;
use super::{Budget, SearchOptions, SearchResult, SearchStats, SearchStatus};
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::FreeMoves;
use crate::moves::{Expansion, MoveBuffer, WalkingMoves};
use crate::world::VoxelWorld;
use crate::world::key::in_key_range;

const NO_PARENT: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    feet: IVec3,
    g: u64,
    h: u64,
    parent: u32,
    closed: bool,
}

/// A reusable A* search for one agent and its costs.
///
/// Keep one per thread and call it for every query: its node table, open set and move
/// buffer keep their memory between searches.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, Pathfinder, SearchOptions, SearchStatus};
///
/// // A 8x4x3 room with a floor and a one-block step in the middle.
/// let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 3))?;
/// world.fill(IVec3::new(0, 0, 0), IVec3::new(7, 0, 2), Block::Solid)?;
/// world.fill(IVec3::new(4, 1, 0), IVec3::new(7, 1, 2), Block::Solid)?;
///
/// let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default())?;
/// let result = pathfinder.find_path(&world, IVec3::new(0, 1, 1), IVec3::new(7, 2, 1), &SearchOptions::default())?;
/// assert_eq!(result.status, SearchStatus::Found);
/// assert_eq!(result.cost, Some(7 * 10 + 10)); // seven steps east, one block climbed
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Pathfinder {
    agent: Agent,
    costs: MoveCosts,
    nodes: Vec<Node>,
    table: NodeTable,
    open: OpenSet,
}

impl Pathfinder {
    /// A pathfinder for `agent` moving at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are out of range (see
    /// [`Agent::validate`] and [`MoveCosts::validate`]).
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        agent.validate()?;
        costs.validate()?;
        Ok(Self {
            agent,
            costs,
            nodes: Vec::new(),
            table: NodeTable::default(),
            open: OpenSet::default(),
        })
    }

    /// The agent.
    #[must_use]
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The move costs.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.costs
    }

    /// Searches for `agent` from now on (a flier after a walker, say), keeping the memory.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent is out of range (see [`Agent::validate`]); the
    /// pathfinder keeps its agent then.
    pub fn set_agent(&mut self, agent: Agent) -> Result<()> {
        agent.validate()?;
        self.agent = agent;
        Ok(())
    }

    /// The feet positions the last search expanded, in no particular order: what it explored
    /// (for pictures and statistics).
    pub fn explored(&self) -> impl Iterator<Item = IVec3> + '_ {
        self.nodes.iter().filter(|n| n.closed).map(|n| n.feet)
    }

    /// Finds a route from the feet position `start` to the feet position `goal`.
    ///
    /// # Errors
    /// [`Error::InvalidStart`] or [`Error::InvalidGoal`] (with the reason) when either is not
    /// a valid feet position, [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`] for empty
    /// budgets, [`Error::Unbounded`] for an unbounded world searched without a budget.
    pub fn find_path<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.search(world, start, &BlockGoal(goal), options)
    }

    /// Searches from the feet position `start` until `goal` is reached, a budget runs out,
    /// or every reachable position has been explored.
    ///
    /// # Errors
    /// As [`Pathfinder::find_path`]; the goal is checked only when it names an exact target.
    pub fn search<W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        self.agent
            .check_position(world, start)
            .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        if let Some(target) = goal.exact_target() {
            self.agent
                .check_position(world, target)
                .map_err(|reason| Error::InvalidGoal {
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
        if world.bounds().is_none() && options.max_nodes.is_none() && options.max_time.is_none() {
            return Err(Error::Unbounded);
        }
        // One search loop per movement mode, each with its rules inlined.
        Ok(if self.agent.movement.is_free() {
            self.run(world, start, goal, options, started, FreeMoves)
        } else {
            self.run(world, start, goal, options, started, WalkingMoves)
        })
    }

    /// The search proper, for checked input.
    fn run<W: VoxelWorld + ?Sized, G: Goal + ?Sized, E: Expansion>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
        started: Instant,
        moves: E,
    ) -> SearchResult {
        let estimator = options.heuristic.estimator(&self.agent, &self.costs);
        let budget = Budget::new(options, started);
        self.nodes.clear();
        self.table.clear();

        let mut stats = SearchStats::default();
        let start_h = goal.estimate(start, &estimator);
        self.nodes.push(Node {
            feet: start,
            g: 0,
            h: start_h,
            parent: NO_PARENT,
            closed: false,
        });
        *self.table.slot(start) = 0;
        self.open.reset(start_h);
        self.open.push(start_h, 0, 0);
        stats.generated = 1;
        let (mut best, mut best_h, mut best_g) = (0u32, start_h, 0u64);
        let mut budget_hit = false;
        // Worlds whose bounds lie inside the key range cannot produce unpackable positions.
        let check_keys = world
            .bounds()
            .is_none_or(|b| !(in_key_range(b.min) && in_key_range(b.max - IVec3::ONE)));

        let mut buffer = MoveBuffer::default();
        while let Some((f, node)) = self.open.pop() {
            let current = self.nodes[node as usize];
            if current.closed || f != current.g + current.h {
                continue;
            }
            if goal.is_reached(current.feet) {
                return self.finish(SearchStatus::Found, node, stats, started);
            }
            if budget.exhausted(stats.expanded) {
                budget_hit = true;
                break;
            }
            self.nodes[node as usize].closed = true;
            stats.expanded += 1;

            let (agent, costs) = (self.agent, self.costs);
            let Self {
                nodes, table, open, ..
            } = self;
            moves.collect(world, &agent, &costs, current.feet, &mut buffer);
            for &step in buffer.as_slice() {
                if check_keys && !in_key_range(step.feet) {
                    continue;
                }
                let g = current.g + u64::from(step.cost);
                let slot = table.slot(step.feet);
                let index = if *slot == NO_NODE {
                    let index = nodes.len() as u32;
                    *slot = index;
                    nodes.push(Node {
                        feet: step.feet,
                        g,
                        h: goal.estimate(step.feet, &estimator),
                        parent: node,
                        closed: false,
                    });
                    index
                } else {
                    let index = *slot;
                    let known = &mut nodes[index as usize];
                    if g >= known.g {
                        continue;
                    }
                    known.g = g;
                    known.parent = node;
                    known.closed = false;
                    index
                };
                let h = nodes[index as usize].h;
                open.push(g + h, g, index);
                stats.generated += 1;
                if (h, g) < (best_h, best_g) {
                    (best, best_h, best_g) = (index, h, g);
                }
            }
        }

        if budget_hit {
            self.finish(SearchStatus::Partial, best, stats, started)
        } else {
            stats.elapsed = started.elapsed();
            SearchResult::unreachable(stats)
        }
    }

    fn finish(
        &self,
        status: SearchStatus,
        end: u32,
        mut stats: SearchStats,
        started: Instant,
    ) -> SearchResult {
        let mut path = Vec::new();
        let mut node = end;
        while node != NO_PARENT {
            let n = &self.nodes[node as usize];
            path.push(n.feet);
            node = n.parent;
        }
        path.reverse();
        stats.elapsed = started.elapsed();
        SearchResult {
            status,
            path,
            cost: Some(self.nodes[end as usize].g),
            stats,
        }
    }
}
