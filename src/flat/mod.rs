//! Flat worlds: 2D grids (robot grids, Moving AI benchmark maps), by jump point search or
//! through the same A* as the voxel engine.
//!
//! A 2D grid ([`Grid2d`]) is the flat-world special case of the voxel engine: [`FlatWorld`]
//! turns it into a [`VoxelWorld`](crate::VoxelWorld), and [`GridPlanner`] wraps a [`FlatWorld`],
//! its compiled walk graph ([`NavGraph`]) and A* over it ([`GraphSearch`]) and answers in 2D:
//! cells, [`Action`]s (`U D L R`, and `UL UR DL DR` for diagonals) and octile lengths. On
//! 8-connected grids it answers by jump point search instead ([`GridEngine`]): the same costs,
//! found by scanning the grid as bit rows 64 cells at a time (`jps`), or by reading a table of
//! precomputed jump distances that edits update locally ([`jps_plus`]). The formats are read by
//! [`parse_robot_grid`](crate::world::parse_robot_grid), [`parse_movingai_map`](crate::world::parse_movingai_map)
//! and [`parse_movingai_scen`](crate::world::parse_movingai_scen).
//!
//! ```
//! use voxnav::flat::IVec2;
//! use voxnav::flat::{GridPlanner, format_actions};
//! use voxnav::world::parse_robot_grid;
//!
//! // The robot assignment's example: [0, 0] is the top-left cell.
//! let grid = parse_robot_grid("5 3\n0 0 1 0 0\n1 0 1 0 0\n0 0 0 0 1\n")?;
//! let mut planner = GridPlanner::robot(grid, false)?;
//! let route = planner.plan(IVec2::new(0, 2), IVec2::new(4, 1))?;
//! assert_eq!(format_actions(&route.actions), "R R R U R");
//! # Ok::<(), voxnav::Error>(())
//! ```

mod bits;
mod jps;
pub mod jps_plus;
pub mod scenarios;

/// The 2D coordinates of grid cells (glam's `IVec2`: `x` across, `y` down).
pub use glam::IVec2;

use std::fmt;

use crate::error::{Error, Result};
use crate::flat::bits::BitGrid;
use crate::flat::jps::{JumpResult, JumpSearch, components};
use crate::flat::jps_plus::JumpTable;
use crate::graph::{GraphSearch, NavGraph};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::{SearchOptions, SearchStats, SearchStatus};
use crate::world::flat::FlatWorld;
use crate::world::grid::Grid2d;

/// One step on a 2D grid: `U` is y - 1, `D` y + 1, `L` x - 1, `R` x + 1, and the diagonals
/// combine them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `U`: y - 1.
    Up,
    /// `D`: y + 1.
    Down,
    /// `L`: x - 1.
    Left,
    /// `R`: x + 1.
    Right,
    /// `UL`: x - 1, y - 1.
    UpLeft,
    /// `UR`: x + 1, y - 1.
    UpRight,
    /// `DL`: x - 1, y + 1.
    DownLeft,
    /// `DR`: x + 1, y + 1.
    DownRight,
}

impl Action {
    /// All 8 actions, the 4 straight ones first.
    pub const ALL: [Action; 8] = [
        Action::Up,
        Action::Down,
        Action::Left,
        Action::Right,
        Action::UpLeft,
        Action::UpRight,
        Action::DownLeft,
        Action::DownRight,
    ];

    /// How the action changes the cell.
    #[must_use]
    pub const fn delta(self) -> IVec2 {
        match self {
            Action::Up => IVec2::new(0, -1),
            Action::Down => IVec2::new(0, 1),
            Action::Left => IVec2::new(-1, 0),
            Action::Right => IVec2::new(1, 0),
            Action::UpLeft => IVec2::new(-1, -1),
            Action::UpRight => IVec2::new(1, -1),
            Action::DownLeft => IVec2::new(-1, 1),
            Action::DownRight => IVec2::new(1, 1),
        }
    }

    /// The action that moves from `from` to `to`, if they are neighbours (8-connected).
    #[must_use]
    #[inline]
    pub fn between(from: IVec2, to: IVec2) -> Option<Action> {
        let delta = to - from;
        Some(match (delta.x, delta.y) {
            (0, -1) => Action::Up,
            (0, 1) => Action::Down,
            (-1, 0) => Action::Left,
            (1, 0) => Action::Right,
            (-1, -1) => Action::UpLeft,
            (1, -1) => Action::UpRight,
            (-1, 1) => Action::DownLeft,
            (1, 1) => Action::DownRight,
            _ => return None,
        })
    }

    /// Whether the action is one of the 4 diagonals.
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        let d = self.delta();
        d.x != 0 && d.y != 0
    }

    /// `"U"`, `"D"`, `"L"`, `"R"`, `"UL"`, `"UR"`, `"DL"` or `"DR"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Up => "U",
            Action::Down => "D",
            Action::Left => "L",
            Action::Right => "R",
            Action::UpLeft => "UL",
            Action::UpRight => "UR",
            Action::DownLeft => "DL",
            Action::DownRight => "DR",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The actions separated by single spaces (`"R D D R"`); empty for no actions.
#[must_use]
pub fn format_actions(actions: &[Action]) -> String {
    actions
        .iter()
        .map(|a| a.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The octile length of `actions`: 1 per straight step, sqrt 2 per diagonal step.
#[must_use]
pub fn octile_length(actions: &[Action]) -> f64 {
    let diagonal = actions.iter().filter(|a| a.is_diagonal()).count();
    let straight = actions.len() - diagonal;
    straight as f64 + diagonal as f64 * std::f64::consts::SQRT_2
}

/// A route on a 2D grid.
#[derive(Debug, Clone, PartialEq)]
pub struct GridRoute {
    /// [`SearchStatus::Found`] or [`SearchStatus::Unreachable`] (a grid is finite and the
    /// planner sets no budget).
    pub status: SearchStatus,
    /// The cells from start to goal, both included; empty when unreachable.
    pub cells: Vec<IVec2>,
    /// The actions leading from each cell to the next.
    pub actions: Vec<Action>,
    /// The route's cost in the planner's [`MoveCosts`]; `None` when unreachable.
    pub cost: Option<u64>,
    /// The search's counters. The jump point engines do not measure `elapsed` (zero); a
    /// direct route (see [`GridEngine::Jps`]) expands nothing.
    pub stats: SearchStats,
}

impl GridRoute {
    /// An empty, unreachable route: what [`GridPlanner::plan_into`] fills.
    #[must_use]
    pub fn unreachable() -> Self {
        Self {
            status: SearchStatus::Unreachable,
            cells: Vec::new(),
            actions: Vec::new(),
            cost: None,
            stats: SearchStats::default(),
        }
    }

    /// Whether the goal was reached.
    #[must_use]
    pub fn is_found(&self) -> bool {
        self.status == SearchStatus::Found
    }

    /// The octile length of the route computed from its moves (see [`octile_length`]).
    #[must_use]
    pub fn octile_length(&self) -> f64 {
        octile_length(&self.actions)
    }
}

/// How a [`GridPlanner`] searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GridEngine {
    /// A* over the compiled walk graph of the flat world, cell by cell: any costs, 4- or
    /// 8-connected.
    AStar,
    /// Jump point search over bit rows, without preprocessing: the same costs as A*, far
    /// fewer nodes. 8-connected only, with `straight <= diagonal <= 2 * straight`. A query
    /// whose direct route (one diagonal run and one straight run, in either order) is free
    /// is answered with it and no search: it costs the octile distance, which no route beats.
    Jps,
    /// Jump point search reading precomputed jump distances ([`JumpTable`], 32 bytes per
    /// cell, built when the engine is chosen): the same costs again, with no scanning at query
    /// time. Same conditions as [`GridEngine::Jps`].
    JpsPlus,
}

impl GridEngine {
    /// All engines, A* first.
    pub const ALL: [GridEngine; 3] = [GridEngine::AStar, GridEngine::Jps, GridEngine::JpsPlus];

    /// `"A*"`, `"JPS"` or `"JPS+"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GridEngine::AStar => "A*",
            GridEngine::Jps => "JPS",
            GridEngine::JpsPlus => "JPS+",
        }
    }
}

/// The state of jump point search on one grid: the bit rows, the connected parts (for
/// instant unreachable answers), the table of [`GridEngine::JpsPlus`] when chosen, and the
/// reusable search state.
#[derive(Debug, Clone)]
struct Jumps {
    bits: BitGrid,
    labels: Vec<u32>,
    table: Option<JumpTable>,
    search: JumpSearch,
}

/// Plans routes on one 2D grid. By default it runs jump point search ([`GridEngine::Jps`])
/// where that is exact (8-connected moves with `straight <= diagonal <= 2 * straight`, as
/// both the robot and the Moving AI costs are), and A* over the compiled walk graph of its
/// [`FlatWorld`] ([`NavGraph`], [`GraphSearch`]) otherwise; [`GridPlanner::with_engine`]
/// picks one. Search state is reused between queries.
#[derive(Debug, Clone)]
pub struct GridPlanner {
    world: FlatWorld,
    graph: NavGraph,
    search: GraphSearch,
    costs: MoveCosts,
    diagonals: bool,
    engine: GridEngine,
    jumps: Jumps,
}

impl GridPlanner {
    /// A planner on `grid` for the default agent, with 8-connected moves without corner
    /// cutting when `diagonals` is on, 4-connected moves otherwise, at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `costs` are out of range
    /// ([`MoveCosts::validate`]); [`Error::GraphTooLarge`] for a
    /// grid wider or taller than 65 534 cells or of more than
    /// [`MAX_GRAPH_COLUMNS`](crate::graph::MAX_GRAPH_COLUMNS) cells.
    pub fn new(grid: Grid2d, diagonals: bool, costs: MoveCosts) -> Result<Self> {
        let agent = Agent::default().with_diagonals(diagonals);
        let search = GraphSearch::new(costs)?;
        let world = FlatWorld::new(grid, agent.height)?;
        let graph = NavGraph::compile(&world, &agent)?;
        let bits = BitGrid::new(world.grid());
        let jumps = Jumps {
            labels: components(&bits),
            search: JumpSearch::for_cells(bits.width() as usize * bits.height() as usize),
            bits,
            table: None,
        };
        let engine = if jumps_are_exact(diagonals, &costs) {
            GridEngine::Jps
        } else {
            GridEngine::AStar
        };
        Ok(Self {
            world,
            graph,
            search,
            costs,
            diagonals,
            engine,
            jumps,
        })
    }

    /// The same planner searching with `engine`; [`GridEngine::JpsPlus`] builds its table
    /// here (O(cells)).
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for jump point search on a planner where it would not be
    /// exact: diagonals off, or costs with `diagonal` below `straight` or above twice it.
    /// (A grid too large for the table is too large for the planner already.)
    pub fn with_engine(mut self, engine: GridEngine) -> Result<Self> {
        if engine != GridEngine::AStar && !jumps_are_exact(self.diagonals, &self.costs) {
            return Err(Error::InvalidSetting(format!(
                "{} needs diagonal moves and a diagonal cost from 1 to 2 times the straight one; \
                 this planner has diagonals {} and costs straight {}, diagonal {} (use A*)",
                engine.name(),
                if self.diagonals { "on" } else { "off" },
                self.costs.straight,
                self.costs.diagonal
            )));
        }
        if engine == GridEngine::JpsPlus && self.jumps.table.is_none() {
            self.jumps.table = Some(JumpTable::new(self.world.grid())?);
        }
        self.engine = engine;
        Ok(self)
    }

    /// The engine the planner searches with.
    #[must_use]
    pub fn engine(&self) -> GridEngine {
        self.engine
    }

    /// The robot assignment's planner: [`MoveCosts::default`] (10 per straight step, 14 per
    /// diagonal), so with diagonals off every route has the fewest actions.
    ///
    /// # Errors
    /// As [`GridPlanner::new`] (only a grid too large for the walk graph).
    pub fn robot(grid: Grid2d, diagonals: bool) -> Result<Self> {
        Self::new(grid, diagonals, MoveCosts::default())
    }

    /// The Moving AI planner: 8-connected, no corner cutting, [`MoveCosts::octile`], so routes
    /// have optimal octile length (to about `1e-6` per diagonal step).
    ///
    /// # Errors
    /// As [`GridPlanner::new`] (only a grid too large for the walk graph).
    pub fn octile(grid: Grid2d) -> Result<Self> {
        Self::new(grid, true, MoveCosts::octile())
    }

    /// The flat world searched.
    #[must_use]
    pub fn world(&self) -> &FlatWorld {
        &self.world
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid2d {
        self.world.grid()
    }

    /// The flat world's compiled walk graph.
    #[must_use]
    pub fn graph(&self) -> &NavGraph {
        &self.graph
    }

    /// The best route from `start` to `goal`.
    ///
    /// The jump point engines read no clock: their routes' `stats.elapsed` is zero (a clock
    /// read costs a tenth of a short query); time the call from outside. A* measures it.
    ///
    /// # Errors
    /// [`Error::InvalidCell`] when `start` or `goal` is outside the grid or blocked.
    pub fn plan(&mut self, start: IVec2, goal: IVec2) -> Result<GridRoute> {
        let mut route = GridRoute::unreachable();
        self.plan_into(start, goal, &mut route)?;
        Ok(route)
    }

    /// [`GridPlanner::plan`] into `route`, whose vectors are emptied and reused: a caller
    /// planning many routes one after another allocates nothing per route once the vectors
    /// have grown (the two allocations of a new route are a tenth of a short jump point
    /// query).
    ///
    /// # Errors
    /// As [`GridPlanner::plan`]; `route` is left unreachable and empty.
    pub fn plan_into(&mut self, start: IVec2, goal: IVec2, route: &mut GridRoute) -> Result<()> {
        route.cells.clear();
        route.actions.clear();
        route.status = SearchStatus::Unreachable;
        route.cost = None;
        route.stats = SearchStats::default();
        let bits = &self.jumps.bits;
        // The bit test first: the full check builds its error and is out of line, a tenth of a
        // short jump point query when called for every valid pair.
        if !bits.is_free_anywhere(start.x, start.y) || !bits.is_free_anywhere(goal.x, goal.y) {
            self.grid().check_cell("start", start)?;
            self.grid().check_cell("goal", goal)?;
        }
        let pair = ((start.x, start.y), (goal.x, goal.y));
        let steps = (
            u64::from(self.costs.straight),
            u64::from(self.costs.diagonal),
        );
        let jumps = &mut self.jumps;
        let buffers = (&mut route.cells, &mut route.actions);
        let found = match (self.engine, &jumps.table) {
            (GridEngine::AStar, _) => None,
            (GridEngine::JpsPlus, Some(table)) => {
                Some(
                    jumps
                        .search
                        .find(table, &jumps.labels, pair, steps, buffers),
                )
            }
            _ => Some(
                jumps
                    .search
                    .find(&jumps.bits, &jumps.labels, pair, steps, buffers),
            ),
        };
        if let Some(JumpResult {
            status,
            cost,
            stats,
        }) = found
        {
            (route.status, route.cost, route.stats) = (status, cost, stats);
            return Ok(());
        }
        let result = self.search.find_path(
            &self.graph,
            FlatWorld::feet(start),
            FlatWorld::feet(goal),
            &SearchOptions::default(),
        )?;
        route
            .cells
            .extend(result.path.iter().map(|&feet| FlatWorld::cell(feet)));
        actions_between(&route.cells, &mut route.actions);
        (route.status, route.cost, route.stats) = (result.status, result.cost, result.stats);
        Ok(())
    }
}

/// The actions between consecutive cells of an A* route. Every move of the walking rules goes
/// to a neighbouring cell.
fn actions_between(cells: &[IVec2], actions: &mut Vec<Action>) {
    // Sized once: collecting a filtered iterator grew the vector step by step, a quarter of
    // the instructions of a short jump point query.
    actions.reserve(cells.len().saturating_sub(1));
    for pair in cells.windows(2) {
        if let Some(action) = Action::between(pair[0], pair[1]) {
            actions.push(action);
        }
    }
}

/// Whether jump point search finds routes as cheap as A* for these moves. It keeps, of all
/// the orders of the same moves, the one going diagonally first, and its pruning assumes that
/// a diagonal step is worth taking when it saves a straight one and never worth two straight
/// steps' detour: diagonals on, and a diagonal step costing from one to two straight ones. The
/// robot (10 / 14) and Moving AI costs qualify; the tests check both against Dijkstra.
fn jumps_are_exact(diagonals: bool, costs: &MoveCosts) -> bool {
    diagonals
        && costs.straight <= costs.diagonal
        && costs.diagonal <= costs.straight.saturating_mul(2)
}
