//! # voxnav
//!
//! Navigation for two-block-tall agents in Minecraft-style voxel worlds: walkable routes that
//! respect head room, step-ups, safe drops and corners, found by a fast A*.
//!
//! ```
//! use voxnav::IVec3;
//! use voxnav::{Agent, MoveCosts, Pathfinder, SearchOptions, SearchStatus, parse_text_world};
//!
//! // Layer 0 is the floor; layer 1 has a one-block wall with a gap at z = 2.
//! let world = parse_text_world(
//!     "voxnav-world 1\nsize 5 4 3\n\
//!      layer 0\n#####\n#####\n#####\n\
//!      layer 1\n..#..\n..#..\n.....\n\
//!      layer 2\n.....\n.....\n.....\n\
//!      layer 3\n.....\n.....\n.....\n",
//! )?;
//! let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default())?;
//! let route = pathfinder.find_path(
//!     &world,
//!     IVec3::new(0, 1, 0),
//!     IVec3::new(4, 1, 0),
//!     &SearchOptions::default(),
//! )?;
//! assert_eq!(route.status, SearchStatus::Found);
//! // Walk (10), climb onto the wall (10 + 10), drop off it (10 + 2), walk (10): 52.
//! // Walking round through the gap at z = 2 would cost 68.
//! assert_eq!(route.cost, Some(52));
//! assert_eq!(route.path.first(), Some(&IVec3::new(0, 1, 0)));
//! # Ok::<(), voxnav::Error>(())
//! ```
//!
//! ## The pieces
//!
//! - [`VoxelWorld`]: implement it on your block storage (passable, standable, extra cost),
//!   or use [`ChunkedWorld`], 16x16x16 bitset chunks.
//! - [`Agent`] and [`MoveCosts`]: the agent's height, step-up and drop limits, and what
//!   moves cost.
//! - [`neighbours`]: the walking rules, documented in [`moves`].
//! - [`Pathfinder`]: a reusable A* with node and time budgets and [`Goal`]s.
//! - [`parse_text_world`]: the layered text world format.
//! - [`flat`]: 2D grids (robot grids, Moving AI maps) as flat voxel worlds.
//! - [`BatchRouter`]: many queries at once, on rayon's threads or one ([`batch`]).
//! - [`ReachIndex`] and [`Navigator`]: goals that cannot be reached answered without
//!   searching ([`reach`]).
//! - Living worlds: [`Block`] kinds beyond air and solid (water, lava, slow floors, ladders)
//!   with their costs in [`MoveCosts`]; [`ChunkedWorld::track_changes`] and
//!   [`ChunkedWorld::take_changes`] report the cells and chunks that changed;
//!   [`check_path`] tells whether a route is still walkable; [`Replanner`] and
//!   [`DStarLite`] replan incrementally from where the agent stands (see [`replan`]).
//!
//! ## The walking rules
//!
//! See the [`moves`] module: 8 horizontal directions, each a level walk, a drop of up to
//! `max_drop` blocks, or a step up of up to `max_step_up` blocks, with head room for the
//! whole body and no corner cutting on diagonals. Never straight up or down.
//! Ladders add straight climbs, and water, slow floors and nearby lava add terrain costs:
//! rules 4 and 5 of [`moves`], which never apply in a world of only air and solid blocks.

pub mod baseline;
pub mod batch;
pub mod error;
pub mod flat;
pub mod graph;
pub mod moves;
pub mod reach;
pub mod replan;
pub mod search;
#[cfg(feature = "terrain")]
pub mod terrain;
pub mod world;

pub use batch::{BatchRouter, RouteQuery};
pub use error::{Error, Result};
pub use flat::{Action, GridPlanner, GridRoute, format_actions};
pub use glam::IVec2;
pub use glam::IVec3;
pub use graph::{GraphSearch, NavGraph};
pub use moves::agent::{Agent, MoveCosts, Movement, OCTILE_SCALE};
pub use moves::pathcheck::{PathCheck, check_path, move_between};
pub use moves::{
    DIRECTIONS, Move, MoveKind, ladder_climb, move_in_direction, neighbours, terrain_cost,
};
pub use reach::{Navigator, Reach, ReachIndex};
pub use replan::{DStarLite, Replan, ReplanMethod, Replanner};
pub use search::heuristic::{Estimator, Heuristic, HeuristicKind};
pub use search::{
    AnyOfGoal, AwayFromGoal, BlockGoal, ColumnGoal, Goal, Pathfinder, RadiusGoal, SearchOptions,
    SearchResult, SearchStats, SearchStatus,
};
#[cfg(feature = "terrain")]
pub use terrain::{TerrainConfig, generate_terrain, pick_pairs, surface_feet};
#[cfg(feature = "anvil")]
pub use world::anvil;
pub use world::chunked::{Block, BlockChange, CHUNK_SIZE, Changes, ChunkedWorld};
pub use world::dense::DenseWorld;
pub use world::flat::FlatWorld;
pub use world::formats::movingai::{
    Scenario, load_movingai_map, load_movingai_scen, parse_movingai_map, parse_movingai_scen,
};
pub use world::formats::movingai3d::{
    VoxelScenario, VoxelScenarios, parse_movingai_3dmap, parse_movingai_3dscen,
};
pub use world::formats::robot::{load_robot_grid, parse_robot_grid};
pub use world::formats::text::{load_text_world, parse_text_world, save_text_world, to_text_world};
pub use world::grid::Grid2d;
pub use world::{
    AROUND, Bounds, ColumnBits, FENCE_TOP, FULL_BLOCK, InvalidFeet, TerrainFlags, VersionedWorld,
    VoxelWorld, WorldId, WorldIdentity, body_fits, check_feet, is_valid_feet,
};
