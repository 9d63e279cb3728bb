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
//! ## Where to read
//!
//! The modules are layered; each reads only the ones above it.
//!
//! | module | what it holds | start with |
//! |---|---|---|
//! | [`world`] | the [`VoxelWorld`] trait and its contracts (bounds, identity and versions, valid feet positions), the storages ([`ChunkedWorld`], [`DenseWorld`], [`FlatWorld`]), the file formats ([`world::formats`]) and, with the `anvil` feature, real Minecraft saves (`world::anvil`) | [`VoxelWorld`], [`ChunkedWorld`], [`Block`] |
//! | [`moves`] | the rules, stated once: walking (ladders, water, partial floors, doors, hazards), flying and swimming ([`moves::fly`]); [`Agent`] and [`MoveCosts`]; [`check_path`] | the [`moves`] module docs |
//! | [`graph`] | the walking graph of a bounded world compiled once into dense arrays ([`NavGraph`]), its local updates, and A* over it ([`GraphSearch`]) | [`NavGraph`] |
//! | [`search`] | the on-the-fly A* for any world, bounded or not ([`Pathfinder`]), goals, heuristics, options and results | [`Pathfinder`], [`SearchOptions`] |
//! | [`reach`] | the reachability index and [`Navigator`]: unreachable goals answered without searching | [`Navigator`] |
//! | [`replan`] | incremental replanning in a changing world: [`DStarLite`] and the [`Replanner`] policy | [`Replanner`] |
//! | [`batch`] | many queries at once, on rayon's threads or one | [`BatchRouter`] |
//! | [`flat`] | 2D grids (robot grids, Moving AI maps) answered in 2D terms | [`GridPlanner`] |
//! | `terrain` | the procedural terrain of the examples and benchmarks (feature `terrain`) | `generate_terrain` |
//! | [`baseline`] | a naive 26-neighbour A*, for comparisons only | |
//!
//! `use voxnav::prelude::*;` brings the types most programs need.
//!
//! ## The walking rules
//!
//! See the [`moves`] module: 8 horizontal directions, each a level walk, a drop of up to
//! `max_drop` blocks, or a step up of up to `max_step_up` blocks, with head room for the
//! whole body and no corner cutting on diagonals. Never straight up or down, except on a
//! ladder. Water, slow floors, doors, cobwebs and nearby lava or hazards add terrain costs;
//! partial floors (slabs, snow) and fences change what a step up or a drop may be. None of
//! the added rules applies in a world of only air and solid blocks.

pub mod baseline;
pub mod batch;
pub mod chase;
pub mod error;
pub mod flat;
pub mod follow;
pub mod graph;
pub mod moves;
pub mod prelude;
pub mod reach;
pub mod replan;
pub mod router;
pub mod search;
#[cfg(feature = "terrain")]
pub mod terrain;
#[cfg(test)]
mod testing;
pub mod world;

// The main types, documented on this page; everything else keeps its home module as its
// documented path and is re-exported here for convenience.
#[doc(inline)]
pub use batch::BatchRouter;
#[doc(inline)]
pub use error::Error;
#[doc(inline)]
pub use follow::{FollowState, FollowerConfig, PathFollower, Steer, snap_feet};
pub use glam::DVec3;
#[doc(inline)]
pub use moves::agent::{Agent, MoveCosts, Movement};
#[doc(inline)]
pub use reach::{IndexedRouter, Navigator};
#[doc(inline)]
pub use replan::Replanner;
#[doc(inline)]
pub use router::{Engine, Router};
#[doc(inline)]
pub use search::{Pathfinder, SearchOptions, SearchResult, SearchStatus};
#[doc(inline)]
pub use world::VoxelWorld;
#[doc(inline)]
pub use world::chunked::{Block, ChunkedWorld};

pub use batch::RouteQuery;
pub use error::Result;
pub use flat::{Action, GridPlanner, GridRoute, format_actions};
pub use glam::IVec2;
pub use glam::IVec3;
pub use graph::{GraphSearch, NavGraph};
pub use moves::agent::OCTILE_SCALE;
pub use moves::pathcheck::{PathCheck, check_path, move_between};
pub use moves::{
    DIRECTIONS, Move, MoveKind, ladder_climb, move_in_direction, neighbours, terrain_cost,
};
pub use reach::{Reach, ReachIndex};
pub use replan::{DStarLite, Replan, ReplanMethod};
pub use search::heuristic::{Estimator, Heuristic, HeuristicKind};
pub use search::{AnyOfGoal, AwayFromGoal, BlockGoal, ColumnGoal, Goal, RadiusGoal, SearchStats};
#[cfg(feature = "terrain")]
pub use terrain::{TerrainConfig, generate_terrain, pick_pairs, surface_feet};
#[cfg(feature = "anvil")]
pub use world::anvil;
pub use world::chunked::{BlockChange, CHUNK_SIZE, Changes};
pub use world::dense::DenseWorld;
pub use world::flat::FlatWorld;
pub use world::formats::movingai::{
    Scenario, load_movingai_map, load_movingai_scen, parse_movingai_map, parse_movingai_scen,
};
pub use world::formats::movingai3d::{
    VoxelScenario, VoxelScenarios, load_movingai_3dmap, load_movingai_3dscen, parse_movingai_3dmap,
    parse_movingai_3dscen,
};
pub use world::formats::robot::{load_robot_grid, parse_robot_grid};
pub use world::formats::text::{load_text_world, parse_text_world, save_text_world, to_text_world};
pub use world::grid::Grid2d;
pub use world::{
    AROUND, Bounds, ColumnBits, FENCE_TOP, FULL_BLOCK, InvalidFeet, TerrainFlags, VersionedWorld,
    WorldId, WorldIdentity, body_fits, check_feet, is_valid_feet,
};
