//! The types most programs need: `use voxnav::prelude::*;`.
//!
//! ```
//! use voxnav::prelude::*;
//!
//! let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 8))?;
//! world.fill(IVec3::ZERO, IVec3::new(7, 0, 7), Block::Solid)?;
//! let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default())?;
//! let route = pathfinder.find_path(
//!     &world,
//!     IVec3::new(0, 1, 0),
//!     IVec3::new(7, 1, 7),
//!     &SearchOptions::default(),
//! )?;
//! assert_eq!(route.status, SearchStatus::Found);
//! # Ok::<(), voxnav::Error>(())
//! ```

pub use crate::batch::{BatchRouter, RouteQuery};
pub use crate::error::{Error, Result};
pub use crate::graph::{GraphSearch, NavGraph};
pub use crate::moves::agent::{Agent, MoveCosts, Movement};
pub use crate::reach::{IndexedRouter, Navigator};
pub use crate::replan::Replanner;
pub use crate::search::{BlockGoal, Goal, Pathfinder, SearchOptions, SearchResult, SearchStatus};
pub use crate::world::VoxelWorld;
pub use crate::world::chunked::{Block, ChunkedWorld};
pub use glam::IVec3;
