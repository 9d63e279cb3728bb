//! # voxnav
//!
//! Navigation for Minecraft-style voxel worlds: walkable routes that respect head room,
//! step-ups, safe drops and corners, found by a fast A*, and NPCs that follow them.
//!
//! One type routes: [`Router`]. Build it from an [`Agent`] and [`MoveCosts`], ask it for
//! routes on any [`VoxelWorld`], and hand each route to a [`PathFollower`] that steers the
//! entity tick by tick.
//!
//! ```
//! use voxnav::{Agent, Block, ChunkedWorld, DVec3, FollowState, IVec3, MoveCosts};
//! use voxnav::{PathFollower, Router, SearchStatus};
//!
//! // A floor, and a one-block wall across it with a gap at z = 2.
//! let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 3))?;
//! world.fill(IVec3::new(0, 0, 0), IVec3::new(7, 0, 2), Block::Solid)?;
//! world.fill(IVec3::new(4, 1, 0), IVec3::new(4, 1, 1), Block::Solid)?;
//!
//! let router = Router::new(Agent::default(), MoveCosts::default())?;
//! let route = router.route(&world, IVec3::new(0, 1, 0), IVec3::new(7, 1, 0))?;
//! assert_eq!(route.status, SearchStatus::Found);
//! // Walk 3, step onto the wall (10 + 10), drop off it (10 + 2), walk 2: 82, cheaper than
//! // going round through the gap.
//! assert_eq!(route.cost, Some(82));
//!
//! // Steer an entity along it: each tick, its position in, where to go out.
//! let mut follower = PathFollower::new(&world, router.agent(), route.path);
//! let steer = follower.tick(&world, DVec3::new(0.5, 1.0, 0.5));
//! assert_eq!(steer.state, FollowState::Following);
//! # Ok::<(), voxnav::Error>(())
//! ```
//!
//! ## Where to read
//!
//! The modules are layered; each reads only the ones above it.
//!
//! | module | what it holds | start with |
//! |---|---|---|
//! | [`world`] | the [`VoxelWorld`] trait and its contracts (bounds, revisions, valid feet positions), the storages ([`ChunkedWorld`], [`world::DenseWorld`], [`world::FlatWorld`]), the file formats ([`world::formats`]) and, with the `anvil` feature, real Minecraft saves (`anvil`) | [`VoxelWorld`], [`ChunkedWorld`], [`Block`] |
//! | [`moves`] | the rules, stated once: walking (ladders, water, swimming, partial floors, doors, hazards), flying and swimming ([`moves::fly`]); [`Agent`] and [`MoveCosts`]; [`check_path`] | the [`moves`] module docs |
//! | [`router`] | [`Router`], the front door: one query, many, any goal, budgets, block changes | [`Router`] |
//! | [`follow`] | [`PathFollower`] (steering along a route, tick by tick) and [`snap_feet`] | [`PathFollower`] |
//! | [`replan`] | one NPC's route under change: the [`Replanner`] | [`Replanner`] |
//! | [`engine`] | the engines the router picks among, for experts: on-the-fly A*, the compiled walk graph, reachability, batches, D* Lite, chase fields | [`engine`] |
//! | [`flat`] | 2D grids (robot grids, Moving AI maps) answered in 2D terms | `flat::GridPlanner` |
//! | `terrain` | the procedural terrain of the examples and benchmarks (feature `terrain`) | `terrain::generate_terrain` |
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

pub mod batch;
pub mod chase;
pub mod engine;
pub mod error;
pub mod flat;
pub mod follow;
pub mod graph;
pub mod hier;
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

// The names most programs use, at most 30: the router, the follower, the agent and its costs,
// the world, the options and results of a query. Everything else has one home: experts' engines
// under `engine`, storages and formats under `world`, 2D grids under `flat`.
#[doc(inline)]
pub use batch::RouteQuery;
#[doc(inline)]
pub use error::{Error, Result};
#[doc(inline)]
pub use follow::{FollowState, FollowerConfig, PathFollower, Steer, snap_feet};
pub use glam::{DVec3, IVec3};
#[doc(inline)]
pub use moves::agent::{Agent, MoveCosts, Movement, WaterMode};
#[doc(inline)]
pub use moves::pathcheck::check_path;
#[doc(inline)]
pub use replan::Replanner;
#[doc(inline)]
pub use router::{Engine, Router};
#[doc(inline)]
pub use search::{BlockGoal, Goal, RadiusGoal, SearchOptions, SearchResult, SearchStatus};
#[doc(inline)]
pub use world::VoxelWorld;
#[cfg(feature = "anvil")]
pub use world::anvil;
#[doc(inline)]
pub use world::chunked::{Block, Changes, ChunkedWorld};
