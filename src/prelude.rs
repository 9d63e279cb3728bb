//! The types most programs need: `use voxnav::prelude::*;`.
//!
//! ```
//! use voxnav::prelude::*;
//!
//! let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 8))?;
//! world.fill(IVec3::ZERO, IVec3::new(7, 0, 7), Block::Solid)?;
//! let router = Router::new(Agent::default(), MoveCosts::default())?;
//! let route = router.route(&world, IVec3::new(0, 1, 0), IVec3::new(7, 1, 7))?;
//! assert_eq!(route.status, SearchStatus::Found);
//! # Ok::<(), voxnav::Error>(())
//! ```

pub use crate::error::{Error, Result};
pub use crate::follow::{FollowState, PathFollower, Steer, snap_feet};
pub use crate::moves::agent::{Agent, MoveCosts, Movement, WaterMode};
pub use crate::replan::Replanner;
pub use crate::router::Router;
pub use crate::search::{BlockGoal, Goal, SearchOptions, SearchResult, SearchStatus};
pub use crate::world::VoxelWorld;
pub use crate::world::chunked::{Block, ChunkedWorld};
pub use glam::{DVec3, IVec3};
