//! A* over feet positions: [`Pathfinder`], the engine that reads the rules from the world on
//! the fly, on the one search loop (`search::core`).

use std::time::Instant;

use glam::IVec3;

use super::cell_records::CellRecords;
use super::cells::{CellTable, Narrow, Record, Wide};
use super::core::{Ended, run};
use super::goal::{BlockGoal, Goal};
use super::heuristic::Estimator;
use super::nodes::PositionTable;
use super::open::OpenSet;
use super::rules::{Free, Walking};
use super::{Budget, SearchOptions, SearchResult};
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::{NO_ARRIVAL, arrival_offset, dominated_moves, parent_masks_1};
use crate::world::VoxelWorld;

/// Where a [`Pathfinder`]'s last search kept its nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Records {
    /// A walker's: `Pathfinder::nodes`.
    Walking,
    /// A flier's or swimmer's, in 8-byte records.
    Narrow,
    /// A flier's or swimmer's, in 16-byte records.
    Wide,
}

/// A reusable A* search for one agent and its costs.
///
/// Keep one per thread and call it for every query: its node tables and open set keep their
/// memory between searches, so memory follows the largest search, not the world. A walker's
/// nodes are records in a list, found through pages of slots; a flier's or swimmer's are
/// records kept where their positions lie, in pages of 16x16x16 cells (see the
/// `search::cells` module).
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions, SearchStatus};
/// use voxnav::engine::Pathfinder;
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
    /// [`dominated_moves`] of the costs, for fliers and swimmers.
    dominated: [u32; 27],
    /// [`parent_masks_1`] of `dominated`.
    parent_masks: [[u32; 32]; 27],
    /// A walker's nodes.
    walking: PositionTable,
    /// A flier's or swimmer's nodes, in 8-byte records, and in 16-byte ones for a search
    /// whose costs pass `u32`.
    narrow: CellTable<Narrow>,
    wide: CellTable<Wide>,
    /// Where the last search kept its nodes.
    last: Records,
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
        let dominated = dominated_moves(&costs);
        Ok(Self {
            agent,
            costs,
            dominated,
            parent_masks: parent_masks_1(&dominated),
            walking: PositionTable::default(),
            narrow: CellTable::default(),
            wide: CellTable::default(),
            last: Records::Walking,
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
        let narrow = (self.last == Records::Narrow).then(|| self.narrow.closed());
        let wide = (self.last == Records::Wide).then(|| self.wide.closed());
        let walking = (self.last == Records::Walking).then(|| self.walking.closed());
        let (narrow, wide) = (narrow.into_iter().flatten(), wide.into_iter().flatten());
        narrow.chain(wide).chain(walking.into_iter().flatten())
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
        options.check_budgets(world.bounds().is_some())?;
        let estimator = options.heuristic.estimator(&self.agent, &self.costs);
        let budget = Budget::new(options, started);
        // The rules are chosen once, as the search's move source.
        Ok(if self.agent.movement.is_free() {
            self.fly(world, start, goal, &estimator, &budget, started)
        } else {
            self.walk(world, start, goal, &estimator, &budget, started)
        })
    }

    /// A walker's search, for checked input.
    fn walk<W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        estimator: &Estimator,
        budget: &Budget,
        started: Instant,
    ) -> SearchResult {
        self.last = Records::Walking;
        let start_node = self.walking.start(start);
        let mut walking = Walking::new(world, self.agent, self.costs);
        let ended = run::<_, _, _, true>(
            &mut self.walking,
            &mut walking,
            &mut self.open,
            start_node,
            goal,
            estimator,
            budget,
        )
        .expect("a walker's records hold every cost");
        let walking = &self.walking;
        ended.finish(started, |end| walking.route(end))
    }

    /// A flier's or swimmer's search, for checked input: in 8-byte records, and again in
    /// 16-byte ones when a cost passes `u32`.
    fn fly<W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        estimator: &Estimator,
        budget: &Budget,
        started: Instant,
    ) -> SearchResult {
        let mut free = Free::new(
            world,
            self.agent,
            &self.costs,
            self.dominated,
            &self.parent_masks,
        );
        self.last = Records::Narrow;
        let narrow = run_free(
            &mut self.narrow,
            &mut self.open,
            start,
            goal,
            estimator,
            budget,
            started,
            &mut free,
        );
        if let Some(result) = narrow {
            return result;
        }
        self.last = Records::Wide;
        run_free(
            &mut self.wide,
            &mut self.open,
            start,
            goal,
            estimator,
            budget,
            started,
            &mut free,
        )
        .expect("16-byte records hold every cost, and a checked start is in the key range")
    }
}

/// A flier's or swimmer's search, for checked input: the records of its nodes are the cells
/// of `cells`, and a node's number names its cell. `None` when a route's cost passes
/// [`Record::MAX_G`]: the search must be run again with wider records.
#[expect(
    clippy::too_many_arguments,
    reason = "the parts of a Pathfinder one search borrows, apart so that the records' width can vary"
)]
fn run_free<R: Record, W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
    cells: &mut CellTable<R>,
    open: &mut OpenSet,
    start: IVec3,
    goal: &G,
    estimator: &Estimator,
    budget: &Budget,
    started: Instant,
    free: &mut Free<'_, W>,
) -> Option<SearchResult> {
    let bounds = free.world().bounds();
    // The start was checked to be in the key range, so it has a node.
    let (mut table, start_node) = CellRecords::start(cells, bounds, start, NO_ARRIVAL as u32)?;
    let ended: Ended =
        run::<_, _, _, true>(&mut table, free, open, start_node, goal, estimator, budget)?;
    // Back from the end, one step at a time: a node's parent is the cell its arrival code
    // points back to, and every parent is a node of this search with a lower cost.
    let cells = table.cells;
    Some(ended.finish(started, |end| {
        let mut path = Vec::new();
        let mut node = Some(end);
        while let Some(at) = node {
            let feet = cells.position(at);
            path.push(feet);
            let arrival = (cells.cell(at).tag() & super::cells::ARRIVAL_MASK) as usize;
            node = if arrival == NO_ARRIVAL {
                None
            } else {
                cells.find(feet - arrival_offset(arrival))
            };
        }
        (path, cells.cell(end).g())
    }))
}
